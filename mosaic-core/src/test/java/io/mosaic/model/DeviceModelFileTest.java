package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.Latency;
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

  @Test
  void theCpuTableRoundTripsAndOlderFilesHaveNone() throws IOException {
    DeviceModel hdd =
        new DeviceModel(
            "hdd",
            1,
            Bandwidth.parse("230 MB/s"),
            Latency.ofMillis(8),
            Map.of(Codec.ZSTD, new DeviceModel.CodecModel(Bandwidth.parse("460 MB/s"), 4.0)));
    Path old = dir.resolve("old.toml");
    DeviceModelFile.write(old, List.of(hdd), "before the CPU was modelled");
    assertThat(DeviceModelFile.readCpu(old)).isEmpty();
    assertThat(DeviceModelFile.readCpu(dir.resolve("absent.toml"))).isEmpty();

    CpuModel cpu =
        new CpuModel(
            1.75,
            Latency.ofMillis(1.5),
            Map.of(
                Codec.NONE, Bandwidth.parse("900 MB/s"), Codec.ZSTD, Bandwidth.parse("400 MB/s")));
    Path file = dir.resolve("device-model.toml");
    DeviceModelFile.write(file, List.of(hdd), cpu, "test");
    assertThat(Files.readString(file))
        .contains("[cpu]", "cores = 1.750", "scan_fixed = \"1.500 ms\"", "zstd = \"400.0 MB/s\"");
    assertThat(DeviceModelFile.readCpu(file)).contains(cpu);
    assertThat(DeviceModelFile.read(file)).containsExactly(Map.entry("hdd", hdd));
    assertThat(cpu.seconds(Codec.ZSTD, 800_000_000L)).isEqualTo(2.0 / 1.75);
    assertThatThrownBy(() -> cpu.decode(Codec.LZ4))
        .hasMessageContaining("no lz4 decoding rate; calibrate again with --codecs including lz4");

    Files.writeString(file, Files.readString(file).replace("cores = 1.750", "cores = 0.5"));
    assertThatThrownBy(() -> DeviceModelFile.readCpu(file))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("damaged [cpu] table (cores must be a number of at least 1, not 0.5)")
        .hasMessageContaining("calibrate the devices again");
  }

  @Test
  void ratesByKindOfValueRoundTripAndPriceStringsPerValue() throws IOException {
    CpuModel.Decoding zstd =
        new CpuModel.Decoding(Bandwidth.parse("200 MB/s"), Bandwidth.parse("350 MB/s"), 15.5);
    CpuModel cpu =
        new CpuModel(
            1.5,
            Latency.ofMillis(0.5),
            Map.of(Codec.ZSTD, Bandwidth.parse("150 MB/s")),
            Map.of(Codec.ZSTD, zstd));
    Path file = dir.resolve("by-kind.toml");
    DeviceModelFile.write(file, List.of(), cpu, "test");
    assertThat(Files.readString(file))
        .contains(
            "zstd_fixed_width = \"200.0 MB/s\"",
            "zstd_variable_width = \"350.0 MB/s\"",
            "zstd_variable_value_ns = 15.500");
    assertThat(DeviceModelFile.readCpu(file)).contains(cpu);

    // Fixed-width: per byte at its own rate; strings: per value plus per byte; a column whose
    // values are not known, or a codec without rates by kind: the mean rate, as before.
    assertThat(cpu.seconds(Codec.ZSTD, 300_000_000L, 1_000_000L, false))
        .isCloseTo(1.5 / 1.5, within(1e-9));
    assertThat(cpu.seconds(Codec.ZSTD, 35_000_000L, 10_000_000L, true))
        .isCloseTo((0.155 + 0.1) / 1.5, within(1e-9));
    assertThat(cpu.seconds(Codec.ZSTD, 300_000_000L, 0, false)).isCloseTo(2.0 / 1.5, within(1e-9));
    assertThatThrownBy(() -> cpu.seconds(Codec.LZ4, 1, 1, true))
        .hasMessageContaining("no lz4 decoding rate");

    Files.writeString(
        file, Files.readString(file).replace("zstd_variable_width = \"350.0 MB/s\"\n", ""));
    assertThatThrownBy(() -> DeviceModelFile.readCpu(file))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("damaged [cpu] table")
        .hasMessageContaining("calibrate the devices again");
  }
}
