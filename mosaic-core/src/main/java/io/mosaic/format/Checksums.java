package io.mosaic.format;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/** The checksums the manifest records ({@code crc32c:<8 hex>}, docs/format.md). */
public final class Checksums {
  private static final int BUFFER = 1 << 20;

  private Checksums() {}

  /** {@code crc32c:<hex>} of {@code length} bytes of {@code bytes} from {@code offset}. */
  public static String of(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return format(crc.getValue());
  }

  static String format(long crc) {
    return String.format(Locale.ROOT, "crc32c:%08x", crc);
  }

  /** The checksum of a whole file, read from its device (through its throttle). */
  public static String ofFile(Device device, Path file) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocate(BUFFER);
    try (DeviceReadChannel ch = device.openForRead(file)) {
      long position = 0;
      for (int n = ch.read(buf, position); n > 0; n = ch.read(buf, position)) {
        crc.update(buf.array(), 0, n);
        position += n;
        buf.clear();
      }
    }
    return format(crc.getValue());
  }
}
