package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceModelFileTest {
  @TempDir Path dir;

  @Test
  void roundTripsInTheFormOfFigure3d() throws IOException {
    DeviceModel nvme =
        new DeviceModel(
            "nvme",
            8,
            Bandwidth.parse("2.1 GB/s"),
            Latency.ZERO,
            Map.of(
                Codec.NONE, new DeviceModel.CodecModel(Bandwidth.parse("2.1 GB/s"), 1.0),
                Codec.ZSTD, new DeviceModel.CodecModel(Bandwidth.parse("1.2 GB/s"), 3.125)));
    DeviceModel hdd =
        new DeviceModel(
            "hdd",
            1,
            Bandwidth.parse("230 MB/s"),
            Latency.ofMillis(8.25),
            Map.of(Codec.LZ4, new DeviceModel.CodecModel(Bandwidth.parse("460 MB/s"), 2.0)));
    Path file = dir.resolve("device-model.toml");
    DeviceModelFile.write(file, List.of(nvme, hdd), "test");
    assertThat(Files.readString(file))
        .contains("device_id = \"nvme\"", "none = \"2100.0 MB/s\"", "zstd = \"1200.0 MB/s\"")
        .contains("seek = \"8.250 ms\"", "zstd_ratio = 3.125");
    assertThat(DeviceModelFile.read(file))
        .containsExactly(Map.entry("nvme", nvme), Map.entry("hdd", hdd));
  }

  @Test
  void damagedOrMissingFilesSayWhatToDo() throws IOException {
    Path file = dir.resolve("device-model.toml");
    assertThatThrownBy(() -> DeviceModelFile.read(file))
        .hasMessageContaining(
            file + ": no device model yet; calibrate the devices to measure them");
    Files.writeString(file, "[[model]]\ndevice_id = \"a\"\nthreads = 1\nraw = \"12 parsecs\"\n");
    assertThatThrownBy(() -> DeviceModelFile.read(file))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(file + ":1: device 'a' damaged model entry (unknown unit 'parsecs'")
        .hasMessageContaining("delete the file and calibrate the devices again");
    Files.writeString(file, "[[model]\n");
    assertThatThrownBy(() -> DeviceModelFile.read(file))
        .hasMessageContaining(file + ":1: not valid TOML");
  }
}
