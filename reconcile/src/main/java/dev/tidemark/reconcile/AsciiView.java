package dev.tidemark.reconcile;

import java.nio.charset.StandardCharsets;

/** Bytes known to be ASCII, seen as characters without copying. */
final class AsciiView implements CharSequence {
    private byte[] data;
    private int from;
    private int length;

    AsciiView set(byte[] d, int start, int end) {
        this.data = d;
        this.from = start;
        this.length = end - start;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return (char) data[from + index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(data, from + start, end - start, StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return new String(data, from, length, StandardCharsets.US_ASCII);
    }
}
