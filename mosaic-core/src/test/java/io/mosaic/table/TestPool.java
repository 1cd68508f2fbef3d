package io.mosaic.table;

import io.mosaic.device.DevicePool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Four emulated devices in a temporary directory, one per codec family, as in the paper's pool. */
public final class TestPool {
  public static final String[] IDS = {"nvme", "ssd", "raid", "hdd"};

  private TestPool() {}

  public static DevicePool fourDevices(Path dir) {
    return create(dir, "10 GB");
  }

  public static DevicePool create(Path dir, String capacity) {
    String[] codecs = {"zstd", "lz4", "none", "zstd"};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < IDS.length; i++) {
      sb.append("[[device]]\nid = \"")
          .append(IDS[i])
          .append("\"\n")
          .append("path = \"devices/")
          .append(IDS[i])
          .append("\"\n")
          .append("capacity = \"")
          .append(i == 3 ? capacity : "10 GB")
          .append("\"\n")
          .append("threads = ")
          .append(i == 3 ? 1 : 2)
          .append('\n')
          .append("codec = \"")
          .append(codecs[i])
          .append("\"\n")
          .append("cost_per_gb = \"")
          .append(100 - 20 * i)
          .append(" ct\"\n")
          .append(i == 0 ? "metadata = true\n" : "")
          // Fast enough not to slow tests down, but every read goes through the throttle.
          .append("emulate = { read = \"4 GB/s\" }\n\n");
    }
    try {
      Path file = dir.resolve("devices.toml");
      Files.writeString(file, sb);
      return DevicePool.load(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
