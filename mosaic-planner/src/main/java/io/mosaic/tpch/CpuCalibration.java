package io.mosaic.tpch;

import io.mosaic.MosaicException;
import io.mosaic.calibration.ScanCalibrator;
import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.model.CpuModel;
import io.mosaic.table.MosaicTable;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Calibrates the host's processors ({@link CpuModel}, docs/cost-model.md) for {@code mosaic
 * calibrate} and the demo: writes TPC-H lineitem at a small scale once per codec into a temporary
 * pool of unthrottled directories on the metadata device, measures scans of it with {@link
 * ScanCalibrator}, and removes everything it wrote.
 */
public final class CpuCalibration {
  public static final String DIR = ".mosaic-calibration-cpu";

  private CpuCalibration() {}

  /**
   * Seconds each throughput figure scans by default. Three-second figures moved the model's
   * decoding throughput (rate times cores) by 13 % between four calibrations in a row on this
   * project's 2-vCPU machine, eight-second ones by 2 % (docs/cost-model.md, "How long calibration
   * scans").
   */
  public static final double DEFAULT_SECONDS_PER_FIGURE = 8;

  /**
   * @param sf TPC-H scale of the lineitem sample (0.1: 600,000 rows, 75 MB uncompressed; on smaller
   *     samples a scan is short enough that its serial parts lower the cores measured)
   * @param codecs the codecs to measure
   * @param secondsPerFigure how long each throughput figure scans, at least ({@link
   *     ScanCalibrator})
   */
  public static CpuModel measure(
      DevicePool pool, double sf, List<Codec> codecs, double secondsPerFigure, PrintWriter err)
      throws IOException {
    if (!(secondsPerFigure > 0) || Double.isInfinite(secondsPerFigure)) {
      throw MosaicException.invalid(
          "CPU calibration needs a positive number of seconds per figure, not " + secondsPerFigure);
    }
    Path dir = pool.metadataDevice().root().resolve(DIR);
    MosaicTable.deleteTree(dir);
    try {
      Files.createDirectories(dir);
      StringBuilder toml = new StringBuilder("# mosaic calibrate: CPU samples, deleted after.\n");
      for (Codec codec : codecs) {
        Files.createDirectories(dir.resolve(codec.configName()));
        toml.append(
            String.format(
                Locale.ROOT,
                "%n[[device]]%nid = \"%s\"%npath = \"%s\"%ncapacity = \"1 TB\"%nthreads = 2%n"
                    + "codec = \"%s\"%ncost_per_gb = \"1 ct\"%n%s",
                codec.configName(),
                codec.configName(),
                codec.configName(),
                codec == codecs.get(0) ? "metadata = true\n" : ""));
      }
      Path config = dir.resolve("devices.toml");
      Files.writeString(config, toml);
      DevicePool samplePool = DevicePool.load(config);
      Map<Codec, MosaicTable> samples = new EnumMap<>(Codec.class);
      for (Codec codec : codecs) {
        err.printf(
            Locale.ROOT,
            "  writing the CPU sample (lineitem SF %s, %s) ...%n",
            sf,
            codec.configName());
        err.flush();
        samples.put(
            codec,
            TpchTables.load(
                TpchTable.LINE_ITEM,
                sf,
                dir.resolve("tables").resolve("lineitem-" + codec.configName()),
                samplePool,
                Map.of(TableProperties.DEFAULT_DEVICE, codec.configName()),
                rows -> {}));
      }
      MosaicTable tiny =
          TpchTables.load(
              TpchTable.REGION,
              1,
              dir.resolve("tables").resolve("region"),
              samplePool,
              Map.of(),
              rows -> {});
      ScanCalibrator calibrator =
          new ScanCalibrator(
              samplePool,
              secondsPerFigure,
              (what, result) -> {
                err.printf(Locale.ROOT, "  %-22s %s%n", what, result);
                err.flush();
              });
      return calibrator.measure(samples, tiny, Runtime.getRuntime().availableProcessors());
    } finally {
      MosaicTable.deleteTree(dir);
    }
  }
}
