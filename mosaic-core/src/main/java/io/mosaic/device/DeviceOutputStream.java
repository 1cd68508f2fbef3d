package io.mosaic.device;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * A new file being written to a device: counts bytes against the device's capacity, computes the
 * file's CRC32C as it goes, and forces the data to the device on close, so a file that was closed
 * is durable before anything refers to it.
 */
public final class DeviceOutputStream extends OutputStream {
  private final Device device;
  private final Path path;
  private final FileChannel channel;
  private final CRC32C crc = new CRC32C();
  // The bytes since the last mark: a segment's column chunks are checksummed one by one.
  private final CRC32C sinceMark = new CRC32C();
  private long position;

  DeviceOutputStream(Device device, Path path) throws IOException {
    this.device = device;
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  public Path path() {
    return path;
  }

  public long position() {
    return position;
  }

  /** {@code crc32c:<hex>} of everything written so far. */
  public String checksum() {
    return String.format(Locale.ROOT, "crc32c:%08x", crc.getValue());
  }

  /**
   * {@code crc32c:<hex>} of the bytes written since the previous mark (or the start), and a new
   * mark here.
   */
  public String mark() {
    String value = String.format(Locale.ROOT, "crc32c:%08x", sinceMark.getValue());
    sinceMark.reset();
    return value;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    device.reserve(len, path);
    ByteBuffer buf = ByteBuffer.wrap(b, off, len);
    try {
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
    } catch (IOException e) {
      if (String.valueOf(e.getMessage()).contains("No space left")) {
        throw new DeviceFullException(
            "the file system under device '"
                + device.id()
                + "' ("
                + device.root()
                + ") is full"
                + " while writing "
                + path
                + "; free space there or move data off the device",
            e);
      }
      throw e;
    }
    crc.update(b, off, len);
    sinceMark.update(b, off, len);
    position += len;
  }

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      try {
        channel.force(true);
      } finally {
        channel.close();
      }
    }
  }
}
