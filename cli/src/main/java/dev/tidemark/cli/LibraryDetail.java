package dev.tidemark.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Keeps the libraries' failure detail off the terminal while a pipeline runs: an event of Debezium, the Kafka clients
 * or a JDBC driver at ERROR, or one that carries a stack trace, is written (with its trace) to
 * {@code <stateDir>/<name>.detail.log} and not to the console; Tidemark's own lines and the libraries' plain warnings
 * stay on the terminal. The file is opened on the first such event and only when the state folder exists (a start
 * refused before capture made it leaves nothing behind; such early detail is dropped, Tidemark's own line says what
 * failed). {@link #note()} gives the words that name the file for Tidemark's one line. {@link #close()} restores the
 * console.
 */
final class LibraryDetail implements AutoCloseable {
    private static final String[] LIBRARIES = {"io.debezium", "org.apache.kafka", "org.postgresql", "org.sqlite", "org.mariadb"};
    private final LoggerContext context;
    private final DetailFile file;
    private final Filter<ILoggingEvent> hide = new Filter<>() {
        @Override
        public FilterReply decide(ILoggingEvent e) {
            return isDetail(e) ? FilterReply.DENY : FilterReply.NEUTRAL;
        }
    };
    private final List<ConsoleAppender<ILoggingEvent>> consoles = new ArrayList<>();

    private LibraryDetail(LoggerContext context, Path path) {
        this.context = context;
        this.file = new DetailFile(path);
    }

    /** Routes library detail to {@code <stateDir>/<pipeline>.detail.log}; a no-op when logging is not logback. */
    static LibraryDetail route(Path stateDir, String pipeline) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return new LibraryDetail(null, stateDir.resolve(pipeline + ".detail.log"));
        }
        LibraryDetail d = new LibraryDetail(context, stateDir.resolve(pipeline + ".detail.log"));
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            if (it.next() instanceof ConsoleAppender<ILoggingEvent> console) {
                console.addFilter(d.hide);
                d.consoles.add(console);
            }
        }
        d.file.setContext(context);
        d.file.setName("tidemark-library-detail");
        d.file.start();
        root.addAppender(d.file);
        return d;
    }

    /** True for a library's event at ERROR or with a stack trace. */
    static boolean isDetail(ILoggingEvent e) {
        boolean library = false;
        for (String prefix : LIBRARIES) {
            library |= e.getLoggerName().startsWith(prefix);
        }
        return library && (e.getLevel().isGreaterOrEqual(Level.ERROR) || e.getThrowableProxy() != null);
    }

    /** " (library detail: FILE)" once detail was written to the file, else empty. */
    String note() {
        return file.written() ? " (library detail: " + file.path + ")" : "";
    }

    @Override
    public void close() {
        if (context == null) {
            return;
        }
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(file);
        file.stop();
        for (ConsoleAppender<ILoggingEvent> console : consoles) {
            // filters cannot be removed one by one: rebuild the list without ours
            List<Filter<ILoggingEvent>> keep = new ArrayList<>(console.getCopyOfAttachedFiltersList());
            keep.remove(hide);
            console.clearAllFilters();
            keep.forEach(console::addFilter);
        }
    }

    /** Appends library detail to the file, opened on the first event if its folder exists. */
    private static final class DetailFile extends AppenderBase<ILoggingEvent> {
        private final Path path;
        private Writer out;
        private volatile boolean written;

        DetailFile(Path path) {
            this.path = path;
        }

        boolean written() {
            return written;
        }

        @Override
        protected void append(ILoggingEvent e) {
            if (!isDetail(e) || !Files.isDirectory(path.getParent())) {
                return;
            }
            try {
                if (out == null) {
                    out = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
                out.write(Instant.ofEpochMilli(e.getTimeStamp()) + " " + e.getLevel() + " " + e.getLoggerName() + " - "
                        + e.getFormattedMessage() + CoreConstants.LINE_SEPARATOR);
                if (e.getThrowableProxy() != null) {
                    out.write(ThrowableProxyUtil.asString(e.getThrowableProxy()) + CoreConstants.LINE_SEPARATOR);
                }
                out.flush();
                written = true;
            } catch (IOException ex) {
                addError("cannot write " + path, ex);
            }
        }

        @Override
        public void stop() {
            super.stop();
            try {
                if (out != null) {
                    out.close();
                }
            } catch (IOException e) {
                addError("cannot close " + path, e);
            }
        }
    }
}
