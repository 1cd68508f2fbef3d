package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.calibration.DeviceCalibrator;
import io.mosaic.config.ByteSize;
import io.mosaic.config.Codec;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.tpch.CpuCalibration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mosaic calibrate}: measures every device and writes the device model (Fig. 3d). */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = {
      "Measure each device's sequential read throughput (raw, and effective per codec) with its"
          + " configured reader threads, and its seek time, on a TPC-H sample column written there;"
          + " write the device model file the cost model reads.",
      "Devices with an 'emulate' rate are measured through their throttle."
    })
final class CalibrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description =
          "Device model file to write (default: device-model.toml on the metadata device).")
  Path model;

  @Option(
      names = "--device",
      paramLabel = "ID",
      description =
          "Calibrate only this device (repeatable); the others keep their entries in the model.")
  List<String> only = new ArrayList<>();

  @Option(
      names = "--sample-size",
      paramLabel = "SIZE",
      defaultValue = "64 MiB",
      description = "Uncompressed size of the sample column (default: ${DEFAULT-VALUE}).")
  String sampleSize;

  @Option(
      names = "--codecs",
      split = ",",
      paramLabel = "CODEC",
      defaultValue = "none,lz4,zstd",
      description = "Codecs to measure (default: ${DEFAULT-VALUE}).")
  List<String> codecs;

  @Option(
      names = "--seek-probes",
      defaultValue = "32",
      description = "Random 4 KiB reads used to measure the seek time (default: ${DEFAULT-VALUE}).")
  int seekProbes;

  @Option(
      names = "--cpu-sample-sf",
      defaultValue = "0.1",
      paramLabel = "SF",
      description =
          "TPC-H scale of the lineitem sample whose scans measure this host's decoding rate and"
              + " fixed cost per scan (default: ${DEFAULT-VALUE}; 0 skips the CPU, and the model"
              + " then counts the devices alone).")
  double cpuSampleSf;

  @Option(
      names = "--cpu-seconds",
      defaultValue = "8",
      paramLabel = "SECONDS",
      description =
          "How long each CPU throughput figure scans the sample (default: ${DEFAULT-VALUE}; the"
              + " CPU takes about 14 figures; shorter ones move more between calibrations).")
  double cpuSeconds;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DevicePool pool = poolOption.load();
    Path modelFile = model != null ? model : pool.modelFile();
    List<Device> targets =
        only.isEmpty() ? pool.devices() : only.stream().map(pool::device).toList();
    long bytes = parseSampleSize();
    // Checked before the devices are measured, which takes minutes.
    if (!(cpuSampleSf >= 0) || cpuSampleSf > 1) {
      throw MosaicException.invalid(
          "--cpu-sample-sf " + cpuSampleSf + ": give a scale from 0 (skip the CPU) to 1");
    }
    if (!(cpuSeconds > 0) || Double.isInfinite(cpuSeconds)) {
      throw MosaicException.invalid(
          "--cpu-seconds " + cpuSeconds + ": give a positive number of seconds, such as 8");
    }
    List<Codec> codecList = codecs.stream().map(CalibrateCommand::codec).toList();

    err.printf(Locale.ROOT, "Generating a %s TPC-H lineitem sample ...%n", ByteSize.ofBytes(bytes));
    DeviceCalibrator calibrator =
        new DeviceCalibrator(
            CalibrationSample.generate(bytes),
            new DeviceCalibrator.Options(codecList, seekProbes),
            new TerminalProgress(err, System.console() != null));

    Map<String, DeviceModel> models = new LinkedHashMap<>();
    CpuModel cpu = null;
    if (!only.isEmpty() && Files.exists(modelFile)) {
      models.putAll(DeviceModelFile.read(modelFile));
      cpu = DeviceModelFile.readCpu(modelFile).orElse(null);
    }
    for (Device device : targets) {
      models.put(device.id(), calibrator.calibrate(device));
    }
    if (cpuSampleSf > 0 && (only.isEmpty() || cpu == null)) {
      err.println("Measuring the CPU (decoding per codec, fixed cost per scan) ...");
      // Every codec measured for the devices, and those the pool's devices store with.
      java.util.Set<Codec> cpuCodecs = new java.util.TreeSet<>(codecList);
      pool.devices().forEach(d -> cpuCodecs.add(d.spec().codec()));
      cpu = CpuCalibration.measure(pool, cpuSampleSf, List.copyOf(cpuCodecs), cpuSeconds, err);
    }
    DeviceModelFile.write(
        modelFile,
        pool.devices().stream().map(d -> models.get(d.id())).filter(m -> m != null).toList(),
        cpu,
        "Device model (Mosaic paper, Figure 3d), written by `mosaic calibrate` at "
            + Instant.now()
            + "\nfor "
            + poolOption.devices.toAbsolutePath()
            + "; sample: "
            + ByteSize.ofBytes(bytes)
            + " of TPC-H lineitem.");

    TextTable table =
        new TextTable("device", "threads", "throttle", "raw", "none", "lz4", "zstd", "seek");
    for (Device device : targets) {
      DeviceModel m = models.get(device.id());
      table.row(
          device.id(),
          Integer.toString(m.threads()),
          device.spec().emulation().map(e -> e.read().toString()).orElse("-"),
          mbps(m.raw().megabytesPerSecond()),
          effective(m, Codec.NONE),
          effective(m, Codec.LZ4),
          effective(m, Codec.ZSTD),
          String.format(Locale.ROOT, "%.2f ms", m.seek().nanos() / 1e6));
    }
    out.println("Read throughput (effective = decompressed bytes per second; ratio in brackets):");
    out.print(table.render());
    if (!calibrator.pageCacheDropped() && targets.stream().anyMatch(d -> !d.emulated())) {
      out.println(
          "Note: the OS page cache could not be dropped (needs root), so figures for devices"
              + " without 'emulate' may show the cache rather than the device.");
    }
    if (cpu != null) {
      CpuModel c = cpu;
      out.printf(
          Locale.ROOT,
          "CPU: %.2f cores per scan, %.2f ms fixed per scan, decoding per core: %s%n",
          c.cores(),
          c.scanFixed().nanos() / 1e6,
          String.join(
              ", ",
              c.decode().entrySet().stream()
                  .sorted(Map.Entry.comparingByKey())
                  .map(e -> e.getKey().configName() + " " + mbps(e.getValue().megabytesPerSecond()))
                  .toList()));
    }
    out.println("Wrote " + modelFile);
    return 0;
  }

  private long parseSampleSize() {
    long bytes;
    try {
      bytes = ByteSize.parse(sampleSize).bytes();
    } catch (IllegalArgumentException | MosaicException e) {
      throw new MosaicException(
          MosaicException.Kind.INVALID_ARGUMENT,
          "--sample-size \"" + sampleSize + "\": " + e.getMessage(),
          e);
    }
    if (bytes < (1 << 20) || bytes > (1L << 30)) {
      throw MosaicException.invalid(
          "--sample-size \"" + sampleSize + "\": must be from 1 MiB to 1 GiB");
    }
    return bytes;
  }

  private static Codec codec(String name) {
    return Codec.fromConfigName(name)
        .orElseThrow(
            () ->
                MosaicException.invalid(
                    "--codecs: unknown codec '" + name + "'; allowed: " + Codec.allowed()));
  }

  private static String effective(DeviceModel m, Codec codec) {
    DeviceModel.CodecModel c = m.codecs().get(codec);
    return c == null
        ? "-"
        : mbps(c.effective().megabytesPerSecond())
            + String.format(Locale.ROOT, " (%.2f)", c.ratio());
  }

  private static String mbps(double value) {
    return String.format(Locale.ROOT, "%.1f MB/s", value);
  }
}
