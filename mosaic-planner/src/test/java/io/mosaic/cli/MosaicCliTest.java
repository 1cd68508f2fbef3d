package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import io.mosaic.config.DeviceMarker;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MosaicCliTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return MosaicCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private Path pool() throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(
        file,
        """
        [[device]]
        id = "slow"
        path = "pool/slow"
        capacity = "1 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "30 ct"
        emulate = { read = "100 MB/s", seek = "5 ms" }

        [[device]]
        id = "fast"
        path = "pool/fast"
        capacity = "1 GB"
        threads = 4
        codec = "zstd"
        cost_per_gb = "60 ct"
        metadata = true
        emulate = { read = "400 MB/s" }
        """);
    return file;
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new String[] {"calibrate", "devices"}) {
      assertThat(run(command, "--help")).isZero();
      assertThat(out.toString()).contains("Usage: mosaic " + command);
    }
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("calibrate", "devices");
  }

  @Test
  void anUnknownCommandIsAnErrorEvenWithHelp() {
    for (String[] args : new String[][] {{"calibrat", "--help"}, {"calibrat"}, {"nope", "-h"}}) {
      assertThat(run(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(err.toString()).contains("unknown command '" + args[0] + "'", "calibrate");
    }
    assertThat(out.toString()).doesNotContain("Usage: mosaic");
  }

  @Test
  void calibrateWritesAModelThatNeverBeatsTheThrottle() throws IOException {
    Path devices = pool();
    int status =
        run(
            "calibrate",
            "--devices",
            devices.toString(),
            "--sample-size",
            "8 MiB",
            "--cpu-sample-sf",
            "0.005",
            "--cpu-seconds",
            "0.5");
    assertThat(status).as(err.toString()).isZero();
    Path modelFile = dir.resolve("pool/fast/device-model.toml");
    assertThat(out.toString()).contains("Wrote " + modelFile);
    Map<String, DeviceModel> models = DeviceModelFile.read(modelFile);
    assertThat(models).containsOnlyKeys("slow", "fast");

    DeviceModel slow = models.get("slow");
    DeviceModel fast = models.get("fast");
    // An emulated device must not deliver more than its rate (the 10% covers the 2 ms burst
    // credit on a short sample); how close it comes is measured in benchmarks, not here.
    assertThat(slow.raw().megabytesPerSecond()).isBetween(1.0, 110.0);
    assertThat(fast.raw().megabytesPerSecond()).isBetween(1.0, 440.0);
    assertThat(slow.threads()).isEqualTo(1);
    assertThat(fast.threads()).isEqualTo(4);
    // The 5 ms seek is charged and measured; the other device has none.
    assertThat(slow.seek().nanos() / 1e6).isBetween(4.0, 20.0);
    assertThat(fast.seek().nanos() / 1e6).isLessThan(2.0);
    // TPC-H data compresses, zstd better than lz4, and none is the raw rate.
    assertThat(slow.codecs().get(Codec.LZ4).ratio()).isGreaterThan(1.5);
    assertThat(slow.codecs().get(Codec.ZSTD).ratio())
        .isGreaterThan(slow.codecs().get(Codec.LZ4).ratio());
    assertThat(slow.codecs().get(Codec.NONE).effective()).isEqualTo(slow.raw());
    // The host's processors (docs/cost-model.md): every codec of the pool decodes at some rate,
    // a scan gets between one core and all of them, and costs a fixed time below a second.
    CpuModel cpu = DeviceModelFile.readCpu(modelFile).orElseThrow();
    assertThat(cpu.decode()).containsOnlyKeys(Codec.NONE, Codec.LZ4, Codec.ZSTD);
    assertThat(cpu.decode().values()).allMatch(rate -> rate.megabytesPerSecond() > 1);
    assertThat(cpu.cores()).isBetween(1.0, (double) Runtime.getRuntime().availableProcessors());
    assertThat(cpu.scanFixed().nanos()).isBetween(1L, 1_000_000_000L);
    assertThat(out.toString()).contains("CPU: ", "cores per scan", "fixed per scan");
    // Nothing is left behind on the devices but the model file (and each device's marker).
    try (var files = Files.list(dir.resolve("pool/slow"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly(DeviceMarker.FILE);
    }
    try (var files = Files.list(dir.resolve("pool/fast"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactlyInAnyOrder(DeviceMarker.FILE, "device-model.toml");
    }
  }

  @Test
  void calibratingOneDeviceKeepsTheOthers() throws IOException {
    Path devices = pool();
    assertThat(
            run(
                "calibrate",
                "--devices",
                devices.toString(),
                "--sample-size",
                "2 MiB",
                "--cpu-sample-sf",
                "0"))
        .isZero();
    Path modelFile = dir.resolve("pool/fast/device-model.toml");
    DeviceModel before = DeviceModelFile.read(modelFile).get("fast");
    assertThat(
            run(
                "calibrate",
                "--devices",
                devices.toString(),
                "--device",
                "slow",
                "--sample-size",
                "2 MiB",
                "--codecs",
                "none",
                "--cpu-sample-sf",
                "0.005",
                "--cpu-seconds",
                "0.5"))
        .isZero();
    Map<String, DeviceModel> after = DeviceModelFile.read(modelFile);
    assertThat(after.get("fast")).isEqualTo(before);
    assertThat(after.get("slow").codecs()).containsOnlyKeys(Codec.NONE);
  }

  @Test
  void badInputIsOneClearLineWithExitStatusOne() throws IOException {
    Path devices = pool();
    assertThat(run("calibrate", "--devices", devices.toString(), "--codecs", "gzip")).isOne();
    assertThat(err.toString())
        .isEqualTo("mosaic calibrate: --codecs: unknown codec 'gzip'; allowed: none, lz4, zstd\n");

    err.getBuffer().setLength(0);
    assertThat(run("calibrate", "--devices", devices.toString(), "--cpu-seconds", "0")).isOne();
    assertThat(err.toString())
        .contains("--cpu-seconds 0.0: give a positive number of seconds, such as 8");

    err.getBuffer().setLength(0);
    // An unknown device is not found: exit code 3 (docs/README.md, "Errors").
    assertThat(run("calibrate", "--devices", devices.toString(), "--device", "ssd")).isEqualTo(3);
    assertThat(err.toString()).contains("unknown device 'ssd'", "defines: slow, fast");

    err.getBuffer().setLength(0);
    Files.writeString(devices, Files.readString(devices).replace("\"lz4\"", "\"lzo\""));
    assertThat(run("devices", "--devices", devices.toString())).isOne();
    assertThat(err.toString())
        .contains(
            devices
                + ":6: device 'slow' field 'codec': bad value \"lzo\": unknown codec;"
                + " allowed: none, lz4, zstd");
  }

  @Test
  void devicesPrintsThePool() throws IOException {
    assertThat(run("devices", "--devices", pool().toString())).isZero();
    assertThat(out.toString())
        .contains("fast (metadata)", "100 MB/s, seek 5 ms", "2 devices, configuration OK.");
  }
}
