package io.mosaic.bench.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.DeviceConfigParser;
import io.mosaic.config.DeviceSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PoolDevicesTest {
  @TempDir Path dir;

  private Path pool() throws IOException {
    Files.createDirectories(dir.resolve("real"));
    Path toml = dir.resolve("devices.toml");
    Files.writeString(
        toml,
        """
        # comment
        [[device]]
        id = "hdd"
        name = "HDD \\"10k\\" \\\\ RPM"
        path = "disks/hdd"
        capacity = "1.5 GB"
        threads = 1
        codec = "LZ4"
        cost_per_gb = "0.305 EUR"
        seek = "8 ms"
        emulate = { read = "23 MB/s", seek = "8 ms" }

        [[device]]
        id = "0"
        path = "real"
        capacity = "512 MiB"
        threads = 4
        codec = "zstd"
        cost_per_gb = 60
        metadata = true
        """);
    return toml;
  }

  @Test
  void listsEveryDeviceWithItsEmulationInExactUnits() throws IOException {
    String list = PoolDevices.list(DeviceConfigParser.parsePool(pool()));
    assertThat(list.lines())
        .containsExactly(
            "hdd\t" + dir.resolve("disks/hdd") + "\t23000000\t8000000\t1500000000",
            "0\t" + dir.resolve("real") + "\t0\t0\t536870912");
  }

  @Test
  void unthrottledPoolIsTheSamePoolWithoutEmulate() throws IOException {
    Path in = pool();
    List<DeviceSpec> before = DeviceConfigParser.parsePool(in);
    Path out = dir.resolve("state/devices.toml");
    Files.createDirectories(out.getParent());
    Files.writeString(out, PoolDevices.unthrottled(in, before));

    List<DeviceSpec> after = DeviceConfigParser.parsePool(out);
    assertThat(Files.readString(out)).doesNotContainPattern("(?m)^emulate");
    assertThat(after)
        .containsExactlyElementsOf(
            before.stream()
                .map(
                    d ->
                        new DeviceSpec(
                            d.id(),
                            d.name(),
                            d.path(),
                            d.capacity(),
                            d.threads(),
                            d.codec(),
                            d.costPerGb(),
                            d.seek(),
                            d.metadata(),
                            Optional.empty()))
                .toList());
  }

  @Test
  void randomReadsTimeEachReadAndRefuseTooSmallFiles() throws IOException {
    Path file = dir.resolve("f");
    Files.write(file, new byte[64 * PoolDevices.PAGE]);
    PoolDevices.RandomReads r = PoolDevices.randomReads(file, 32);
    assertThat(r.count()).isEqualTo(32);
    assertThat(r.totalNanos()).isPositive();
    assertThat(r.meanNanos()).isEqualTo(r.totalNanos() / 32.0);

    assertThatThrownBy(() -> PoolDevices.randomReads(file, 33))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("need a file of at least 270336 bytes")
        .hasMessageContaining("write a larger file");
  }
}
