package dev.tidemark.devenv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Finds currently unused TCP ports on the loopback interface. */
final class FreePorts {

    private FreePorts() {
    }

    /**
     * Returns {@code count} distinct ports that were free on 127.0.0.1 a moment ago. All sockets are held open
     * together, so the ports differ from each other; another process may still grab one before the caller binds it.
     */
    static int[] find(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, loopback));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("could not find a free TCP port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port is released either way
                }
            }
        }
    }

    static int find() {
        return find(1)[0];
    }
}
