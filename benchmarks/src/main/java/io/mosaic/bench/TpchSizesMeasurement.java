package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.table.Manifest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SegmentEntry;
import io.mosaic.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Measures the stored size of every TPC-H column by writing the tables through Mosaic's own {@link
 * TableWriter} once per codec (none, lz4, zstd) and summing the manifest's segment sizes: the
 * {@code size(c)} and real compressed sizes of paper Eq. 2 for the shipped sizes file.
 *
 * <p>Usage: {@code benchmarks/bench TpchSizesMeasurement SF OUT.csv [WORK_DIR]}. Writes the CSV of
 * {@code io.mosaic.workload.ColumnSizes}: {@code table,column,bytes,zstd_bytes,lz4_bytes}, where
 * {@code bytes} is the Parquet size with codec none (encoded, not compressed).
 */
public final class TpchSizesMeasurement {
  private static final String[] CODECS = {"none", "lz4", "zstd"};
  private static final int BATCH = 65_536;

  private TpchSizesMeasurement() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: TpchSizesMeasurement SCALE_FACTOR OUT.csv [WORK_DIR]");
      System.exit(2);
    }
    double sf = Double.parseDouble(args[0]);
    Path out = Path.of(args[1]);
    Path work = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("mosaic-sizes");
    DevicePool pool = pool(work);
    // table.column -> codec -> bytes
    Map<String, Map<String, Long>> sizes = new LinkedHashMap<>();
    long start = System.nanoTime();
    for (TpchTable<?> table : TpchTable.getTables()) {
      for (String codec : CODECS) {
        long t0 = System.nanoTime();
        Manifest m = write(table, sf, codec, pool, work);
        for (SegmentEntry s : m.segments()) {
          sizes
              .computeIfAbsent(table.getTableName() + "," + s.column(), k -> new LinkedHashMap<>())
              .merge(codec, s.compressedBytes(), Long::sum);
        }
        System.err.printf(
            Locale.ROOT,
            "%s %s: %d rows, %.1f s%n",
            table.getTableName(),
            codec,
            m.rowCount(),
            (System.nanoTime() - t0) / 1e9);
      }
    }
    StringBuilder csv = new StringBuilder();
    csv.append(
            String.format(
                Locale.ROOT,
                "# TPC-H column sizes at SF %s, measured by io.mosaic.bench.TpchSizesMeasurement:%n"
                    + "# each table written through Mosaic's TableWriter once per codec; bytes ="
                    + " Parquet with codec none.%n",
                BigDecimal.valueOf(sf).stripTrailingZeros().toPlainString()))
        .append("table,column,bytes,zstd_bytes,lz4_bytes\n");
    sizes.forEach(
        (column, byCodec) ->
            csv.append(column)
                .append(',')
                .append(byCodec.get("none"))
                .append(',')
                .append(byCodec.get("zstd"))
                .append(',')
                .append(byCodec.get("lz4"))
                .append('\n'));
    Files.writeString(out, csv);
    System.err.printf(
        Locale.ROOT,
        "Wrote %s in %.1f s%n",
        out.toAbsolutePath(),
        (System.nanoTime() - start) / 1e9);
  }

  /** One unthrottled device per codec under {@code work}. */
  private static DevicePool pool(Path work) throws IOException {
    StringBuilder toml = new StringBuilder();
    for (String codec : CODECS) {
      Files.createDirectories(work.resolve("dev-" + codec));
      toml.append("[[device]]\nid = \"")
          .append(codec)
          .append("\"\npath = \"dev-")
          .append(codec)
          .append("\"\ncapacity = \"1 TB\"\nthreads = 2\ncodec = \"")
          .append(codec)
          .append("\"\ncost_per_gb = \"1 ct\"\n")
          .append(codec.equals("none") ? "metadata = true\n" : "")
          .append('\n');
    }
    Path file = work.resolve("devices.toml");
    Files.writeString(file, toml);
    return DevicePool.load(file);
  }

  private static Manifest write(
      TpchTable<?> table, double sf, String codec, DevicePool pool, Path work) throws IOException {
    return TpchTables.load(
            table,
            sf,
            work.resolve("tables").resolve(codec).resolve(table.getTableName()),
            pool,
            Map.of(MosaicTable.DEFAULT_DEVICE, codec),
            rows -> {})
        .latest();
  }
}
