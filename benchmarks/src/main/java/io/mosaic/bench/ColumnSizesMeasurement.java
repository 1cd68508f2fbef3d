package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpcds.TpcdsTables;
import io.mosaic.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures the stored size of every TPC-H or TPC-DS column by writing the tables through Mosaic's
 * own {@link TableWriter} once per codec (none, lz4, zstd) and summing the manifest's segment
 * sizes: the {@code size(c)} and real compressed sizes of paper Eq. 2 for the shipped sizes file.
 *
 * <p>Usage: {@code benchmarks/bench ColumnSizesMeasurement tpch|tpcds SF OUT.csv [WORK_DIR]}.
 * Writes the CSV of {@code io.mosaic.workload.ColumnSizes}: {@code
 * table,column,bytes,zstd_bytes,lz4_bytes}, where {@code bytes} is the Parquet size with codec none
 * (encoded, not compressed).
 */
public final class ColumnSizesMeasurement {
  private static final String[] CODECS = {"none", "lz4", "zstd"};

  private ColumnSizesMeasurement() {}

  /** Writes one generated table at a scale factor into a new Mosaic table. */
  private interface Loader {
    MosaicTable load(double sf, Path root, DevicePool pool, Map<String, String> properties)
        throws IOException;
  }

  private record Source(String table, Loader loader) {}

  private static List<Source> sources(String benchmark) {
    return switch (benchmark) {
      case "tpch" ->
          TpchTable.getTables().stream()
              .map(
                  t ->
                      new Source(
                          t.getTableName(),
                          (sf, root, pool, props) ->
                              TpchTables.load(t, sf, root, pool, props, rows -> {})))
              .toList();
      case "tpcds" ->
          TpcdsTables.tables().stream()
              .map(
                  t ->
                      new Source(
                          t.getName(),
                          (sf, root, pool, props) ->
                              TpcdsTables.load(t, sf, root, pool, props, rows -> {})))
              .toList();
      default ->
          throw new IllegalArgumentException(
              "unknown benchmark '" + benchmark + "': use tpch or tpcds");
    };
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println(
          "usage: ColumnSizesMeasurement tpch|tpcds SCALE_FACTOR OUT.csv [WORK_DIR]");
      System.exit(2);
    }
    String benchmark = args[0];
    List<Source> sources = sources(benchmark);
    double sf = Double.parseDouble(args[1]);
    Path out = Path.of(args[2]);
    Path work = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("mosaic-sizes");
    DevicePool pool = pool(work);
    // table.column -> codec -> bytes
    Map<String, Map<String, Long>> sizes = new LinkedHashMap<>();
    long start = System.nanoTime();
    for (Source source : sources) {
      for (String codec : CODECS) {
        long t0 = System.nanoTime();
        Manifest m =
            source
                .loader()
                .load(
                    sf,
                    work.resolve("tables").resolve(codec).resolve(source.table()),
                    pool,
                    Map.of(TableProperties.DEFAULT_DEVICE, codec))
                .latest();
        for (SegmentEntry s : m.segments()) {
          sizes
              .computeIfAbsent(source.table() + "," + s.column(), k -> new LinkedHashMap<>())
              .merge(codec, s.compressedBytes(), Long::sum);
        }
        System.err.printf(
            Locale.ROOT,
            "%s %s: %d rows, %.1f s%n",
            source.table(),
            codec,
            m.rowCount(),
            (System.nanoTime() - t0) / 1e9);
      }
    }
    StringBuilder csv = new StringBuilder();
    csv.append(
            String.format(
                Locale.ROOT,
                "# %s column sizes at SF %s, measured by io.mosaic.bench.ColumnSizesMeasurement:%n"
                    + "# each table written through Mosaic's TableWriter once per codec; bytes ="
                    + " Parquet with codec none.%n",
                benchmark.equals("tpch") ? "TPC-H" : "TPC-DS",
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
}
