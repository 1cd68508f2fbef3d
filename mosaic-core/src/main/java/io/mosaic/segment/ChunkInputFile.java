package io.mosaic.segment;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Bytes of a segment file already read from its device (a column chunk, the page indexes),
 * presented to parquet-java as the segment file: parquet-java then reads them from memory, so
 * decoding never touches a device nor reads the same bytes twice.
 */
public final class ChunkInputFile implements InputFile {
  private final long fileLength;
  private final long chunkOffset;
  private final byte[] chunk;

  /**
   * The file of {@code fileLength} bytes whose bytes from {@code chunkOffset} on are {@code chunk},
   * the only ones a reader of it may read.
   */
  public ChunkInputFile(long fileLength, long chunkOffset, byte[] chunk) {
    this.fileLength = fileLength;
    this.chunkOffset = chunkOffset;
    this.chunk = chunk;
  }

  @Override
  public long getLength() {
    return fileLength;
  }

  @Override
  public SeekableInputStream newStream() {
    return new SeekableInputStream() {
      private long pos = chunkOffset;

      @Override
      public long getPos() {
        return pos;
      }

      @Override
      public void seek(long newPos) {
        pos = newPos;
      }

      private int index(int len) throws IOException {
        long at = pos - chunkOffset;
        if (at < 0 || at + len > chunk.length) {
          throw new EOFException(
              "read of " + len + " bytes at " + pos + " outside the prefetched chunk");
        }
        return (int) at;
      }

      @Override
      public int read() throws IOException {
        if (pos - chunkOffset >= chunk.length) {
          return -1;
        }
        return chunk[index(1)] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = (int) Math.min(len, chunk.length - (pos - chunkOffset));
        if (n <= 0) {
          return -1;
        }
        System.arraycopy(chunk, index(n), b, off, n);
        pos += n;
        return n;
      }

      @Override
      public int read(ByteBuffer buf) throws IOException {
        int n = (int) Math.min(buf.remaining(), chunk.length - (pos - chunkOffset));
        if (n <= 0) {
          return -1;
        }
        buf.put(chunk, index(n), n);
        pos += n;
        return n;
      }

      @Override
      public void readFully(byte[] bytes) throws IOException {
        readFully(bytes, 0, bytes.length);
      }

      @Override
      public void readFully(byte[] bytes, int start, int len) throws IOException {
        System.arraycopy(chunk, index(len), bytes, start, len);
        pos += len;
      }

      @Override
      public void readFully(ByteBuffer buf) throws IOException {
        int len = buf.remaining();
        buf.put(chunk, index(len), len);
        pos += len;
      }
    };
  }
}
