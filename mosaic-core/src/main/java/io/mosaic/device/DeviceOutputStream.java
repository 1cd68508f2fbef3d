package io.mosaic.device;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * A new file being written to a device: counts bytes against the device's capacity, computes the
 * file's CRC32C as it goes, and makes the data durable on close (the storage's create: fsync, HDFS
 * hsync), so a file that was closed is durable before anything refers to it. On a storage with
 * placement, close also checks that every block landed on the storage types the device's policy
 * asks for (docs/configuration.md, "Devices on HDFS").
 */
public final class DeviceOutputStream extends OutputStream {
  private final Device device;
  private final String key;
  private final OutputStream out;
  private final CRC32C crc = new CRC32C();
  // The bytes since the last mark: a segment's column chunks are checksummed one by one.
  private final CRC32C sinceMark = new CRC32C();
  private long position;
  private boolean closed;

  DeviceOutputStream(Device device, String key, OutputStream out) {
    this.device = device;
    this.key = key;
    this.out = out;
  }

  /** The local file being written; only on a device that is a local directory. */
  public Path path() {
    return device.resolve(key);
  }

  /** The file's key on its device. */
  public String key() {
    return key;
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
    device.reserve(len, key);
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw device.full(key, e);
    }
    crc.update(b, off, len);
    sinceMark.update(b, off, len);
    position += len;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      throw device.full(key, e);
    }
    device.checkPlacement(key);
  }
}
