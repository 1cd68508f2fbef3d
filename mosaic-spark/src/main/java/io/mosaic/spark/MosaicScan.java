package io.mosaic.spark;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.ColumnSummary;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.ScanPlan;
import io.mosaic.scan.SplitTarget;
import io.mosaic.table.MosaicTable;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.colstats.ColumnStatistics;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One Spark scan of a Mosaic table version: core plans it ({@link ScanPlan}, splits of at most
 * about {@value SplitTarget#SPLIT_BYTES} bytes of the requested columns, fewer bytes when that
 * gives every core of the application {@value SplitTarget#SPLITS_PER_CORE} splits) and its
 * partitions record what they read under the plan's scan id, which the trace merges into one record
 * with Spark's execution id.
 */
final class MosaicScan implements Scan, Batch, SupportsReportStatistics {
  private final MosaicOptions options;
  private final MosaicTable table;
  private final Manifest manifest;
  private final StructType schema;
  private final Predicate predicate;
  private final SharingPolicy sharing;
  private InputPartition[] partitions;
  private int skipped;

  /** A scan of {@code manifest}, the version the table was loaded at. */
  MosaicScan(
      MosaicOptions options,
      MosaicTable table,
      Manifest manifest,
      StructType schema,
      Predicate predicate,
      SharingPolicy sharing) {
    this.sharing = sharing;
    this.options = options;
    this.table = table;
    this.manifest = manifest;
    this.schema = schema;
    this.predicate = predicate;
  }

  /** The table's columns the scan reads; the row id, when asked for, is made, not read. */
  private List<String> columns() {
    return Arrays.stream(schema.fields())
        .map(StructField::name)
        .filter(n -> !n.equals(MosaicRowLevelOperation.ROW_ID))
        .toList();
  }

  /** Where the row id goes among the batch's columns, or -1 when the scan does not ask for it. */
  private int rowIdColumn() {
    return Arrays.asList(schema.fieldNames()).indexOf(MosaicRowLevelOperation.ROW_ID);
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (partitions != null) {
      return partitions;
    }
    ScanPlan plan =
        ScanPlan.of(
            table, manifest, columns(), predicate, queryId(), SplitTarget.perCore(parallelism()));
    partitions =
        plan.splits().stream()
            .map(
                s ->
                    new MosaicInputPartition(
                        options,
                        plan.version(),
                        plan.request(s).sharing(sharing),
                        s.hosts(),
                        rowIdColumn()))
            .toArray(InputPartition[]::new);
    skipped = plan.rowGroupsSkipped();
    return partitions;
  }

  private static double rowWidth(StructType type) {
    double width = 8;
    for (StructField f : type.fields()) {
      width += f.dataType().defaultSize();
    }
    return width;
  }

  private static double compressionFactor() {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    return session == null
        ? 1.0
        : Double.parseDouble(session.conf().get("spark.sql.sources.fileCompressionFactor", "1.0"));
  }

  /** The application's cores (Spark's default parallelism); 1 without an active session. */
  private static int parallelism() {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    return session == null ? 1 : Math.max(1, session.sparkContext().defaultParallelism());
  }

  private static String queryId() {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    SparkContext sc = session == null ? null : session.sparkContext();
    String id = sc == null ? null : sc.getLocalProperty("spark.sql.execution.id");
    return id != null
        ? SparkQueryTimes.queryId(id, sc.applicationId())
        : "spark-" + UUID.randomUUID();
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ScanMetrics.supported(options.pool());
  }

  /** Row groups skipped by statistics are skipped here, at planning: the driver reports them. */
  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    planInputPartitions();
    return new CustomTaskMetric[] {new ScanMetrics.Value(ScanMetrics.ROW_GROUPS_SKIPPED, skipped)};
  }

  /** The conjunction pushed into row-group skipping. */
  Predicate predicate() {
    return predicate;
  }

  /**
   * What decides the rows this scan returns, and nothing else: the table (its root, pool and id, so
   * a copied or recreated root is another table), the pinned version, the columns in order with
   * their types, and the pushed conjunction as a set (its order does not change which row groups
   * are skipped). Spark's {@code BatchScanExec} compares scans by their {@link Batch}, so two scans
   * that read the same rows let Spark reuse one exchange or subquery for both (docs/spark.md,
   * "Exchange reuse"). The sharing policy is left out: it changes how retrievers share reads, never
   * the rows.
   */
  record Reads(
      String location,
      String devices,
      String tableId,
      long version,
      StructType columns,
      Set<ColumnPredicate> predicate) {}

  Reads reads() {
    return new Reads(
        options.location(),
        options.devices(),
        manifest.tableId(),
        manifest.version(),
        schema,
        Set.copyOf(predicate.terms()));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MosaicScan other && reads().equals(other.reads());
  }

  @Override
  public int hashCode() {
    return reads().hashCode();
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new MosaicPartitionReaderFactory();
  }

  /**
   * Row count, and the size Spark's file sources would estimate for the same data in Parquet: the
   * table's bytes on its devices (as a file source takes file sizes, times {@code
   * spark.sql.sources.fileCompressionFactor}), scaled by the requested columns' share of Spark's
   * estimated row width ({@code 8 + sum of DataType.defaultSize}, as Spark scales a pruned
   * relation). So the optimizer picks the joins it would pick over Parquet: reporting the requested
   * columns' uncompressed bytes made TPC-H q7 sort-merge lineitem where Parquet's plan broadcasts
   * orders, and their compressed bytes made q12 broadcast 1.5 million orders (a priority column of
   * five values compresses to almost nothing) where Parquet's plan sort-merges.
   */
  @Override
  public Statistics estimateStatistics() {
    long rows = manifest.liveRowCount();
    long stored = manifest.segments().stream().mapToLong(SegmentEntry::compressedBytes).sum();
    double share = rowWidth(schema) / rowWidth(SparkTypes.toSpark(manifest.schema()));
    long size = (long) (stored * compressionFactor() * share);
    return new Statistics() {
      @Override
      public java.util.OptionalLong sizeInBytes() {
        return java.util.OptionalLong.of(size);
      }

      @Override
      public java.util.OptionalLong numRows() {
        return java.util.OptionalLong.of(rows);
      }

      @Override
      public Map<NamedReference, ColumnStatistics> columnStats() {
        return columnStatistics();
      }
    };
  }

  /**
   * Per column of the scan, core's {@link ColumnSummary} (what Trino reports too): distinct count
   * (the union of the row groups' sketches), null count, min and max (numbers, decimals, dates,
   * timestamps, in Spark's internal form) and, for strings and binaries, the average length.
   */
  private Map<NamedReference, ColumnStatistics> columnStatistics() {
    Map<NamedReference, ColumnStatistics> stats = new LinkedHashMap<>();
    for (StructField field : schema.fields()) {
      if (!manifest.schema().names().contains(field.name())) {
        continue;
      }
      ColumnType type = manifest.schema().column(field.name()).type();
      ColumnSummary s = ColumnSummary.of(manifest, field.name());
      long nonNull = s.rows() - s.nulls();
      Optional<Object> min = Optional.ofNullable(internal(type, s.min()));
      Optional<Object> max = Optional.ofNullable(internal(type, s.max()));
      OptionalLong avgLen =
          s.dataBytes().isPresent() && nonNull > 0
              ? OptionalLong.of(Math.round((double) s.dataBytes().getAsLong() / nonNull))
              : OptionalLong.empty();
      stats.put(
          Expressions.column(field.name()),
          new ColumnStatistics() {
            @Override
            public OptionalLong distinctCount() {
              return s.distinct();
            }

            @Override
            public OptionalLong nullCount() {
              return OptionalLong.of(s.nulls());
            }

            @Override
            public Optional<Object> min() {
              return min;
            }

            @Override
            public Optional<Object> max() {
              return max;
            }

            @Override
            public OptionalLong avgLen() {
              return avgLen;
            }
          });
    }
    return stats;
  }

  /** A statistics value of core's (Long, Double, BigDecimal, Boolean) as Catalyst holds it. */
  static Object internal(ColumnType type, Object v) {
    if (v == null) {
      return null;
    }
    return switch (type.kind()) {
      case BOOLEAN -> v;
      case INT8 -> ((Long) v).byteValue();
      case INT16 -> ((Long) v).shortValue();
      case INT32, DATE -> ((Long) v).intValue();
      case INT64, TIMESTAMP, TIMESTAMP_TZ -> v;
      case TIME -> (Long) v * 1000; // Spark's times are nanoseconds of the day
      case FLOAT -> ((Double) v).floatValue();
      case DOUBLE -> v;
      case DECIMAL -> Decimal.apply((BigDecimal) v, type.precision(), type.scale());
      case STRING, CHAR, BINARY, UUID -> null;
    };
  }

  @Override
  public String description() {
    return "MosaicScan "
        + table.name()
        + " v"
        + manifest.version()
        + " "
        + columns()
        + (predicate.terms().isEmpty() ? "" : " where " + predicate);
  }
}
