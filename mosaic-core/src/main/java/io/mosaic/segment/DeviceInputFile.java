package io.mosaic.segment;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A segment file as parquet-java reads it, through the device's I/O path (and its throttle). */
final class DeviceInputFile implements InputFile {
  private final Device device;
  private final Path path;

  DeviceInputFile(Device device, Path path) {
    this.device = device;
    this.path = path;
  }

  @Override
  public long getLength() throws IOException {
    return Files.size(path);
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new Stream(device.openForRead(path));
  }

  @Override
  public String toString() {
    return path.toString();
  }

  private static final class Stream extends SeekableInputStream {
    private final DeviceReadChannel channel;
    private long position;

    Stream(DeviceReadChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) {
      position = newPos;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      int n = channel.read(buf, position);
      if (n > 0) {
        position += n;
      }
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      readFully(ByteBuffer.wrap(bytes, start, len));
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      int n = channel.readFully(buf, position);
      position += n;
      if (buf.hasRemaining()) {
        throw new EOFException("unexpected end of segment file at byte " + position);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
