package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TruncatableTable;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Mosaic table as Spark sees it (DSv2 {@code Table}): batch reads and writes. It reads the
 * table's latest manifest once, when Spark loads it, and every scan of it plans and executes on
 * that version (as a Trino query's handle pins one), however many times Spark's optimizer builds
 * scans and whatever is committed meanwhile.
 */
final class MosaicSparkTable
    implements SupportsRead,
        SupportsWrite,
        TruncatableTable,
        SupportsRowLevelOperations,
        SupportsMetadataColumns {
  private final MosaicOptions options;
  private final StructType schema;
  private final boolean writable;
  // The version read when the table was loaded; null if it did not exist yet (then the first scan
  // reads it).
  private Manifest manifest;

  /**
   * @param writable whether Spark may write through this table (the catalog's tables, and the
   *     writes {@link MosaicDataSource#createRelation} runs once the save mode is settled)
   */
  MosaicSparkTable(MosaicOptions options, StructType schema, boolean writable) {
    this.options = options;
    this.writable = writable;
    this.manifest =
        MosaicTable.exists(options.location(), options.pool())
            ? MosaicTable.open(options.location(), options.pool()).latest()
            : null;
    this.schema = manifest != null ? SparkTypes.toSpark(manifest.schema()) : schema;
  }

  /**
   * The table as of an old version (time travel: {@code VERSION AS OF}, {@code TIMESTAMP AS OF},
   * the read options {@code versionAsOf} and {@code timestampAsOf}): read-only, its scans read
   * {@code version}, which executors pin as they pin any version (docs/format.md, "Time travel").
   */
  MosaicSparkTable(MosaicOptions options, Manifest version) {
    this.options = options;
    this.writable = false;
    this.manifest = version;
    this.schema = SparkTypes.toSpark(version.schema());
  }

  /**
   * The table at {@code options}' location as of a version number or a time (microseconds since the
   * epoch, as Spark passes {@code TIMESTAMP AS OF}); core finds the version, and names the readable
   * ones when it is gone.
   */
  static MosaicSparkTable asOf(MosaicOptions options, Long version, Long timestampMicros) {
    MosaicTable table = MosaicTable.open(options.location(), options.pool());
    Manifest m =
        version != null
            ? table.asOf(version)
            : table.asOf(
                java.time.Instant.EPOCH.plus(
                    timestampMicros, java.time.temporal.ChronoUnit.MICROS));
    return new MosaicSparkTable(options, m);
  }

  /**
   * The version the read options {@code versionAsOf} or {@code timestampAsOf} (a timestamp string
   * in the session's time zone, as Delta and Iceberg take it) ask for, or null for the latest.
   */
  static MosaicSparkTable asOf(MosaicOptions options, Map<String, String> readOptions) {
    CaseInsensitiveStringMap o = new CaseInsensitiveStringMap(readOptions);
    String version = o.get(VERSION_AS_OF);
    String timestamp = o.get(TIMESTAMP_AS_OF);
    if (version == null && timestamp == null) {
      return null;
    }
    if (version != null && timestamp != null) {
      throw MosaicException.invalid(
          "read options "
              + VERSION_AS_OF
              + " and "
              + TIMESTAMP_AS_OF
              + " both set for "
              + options.location()
              + ": give one of them");
    }
    if (version != null) {
      try {
        return asOf(options, Long.parseLong(version.strip()), null);
      } catch (NumberFormatException e) {
        throw MosaicException.invalid(
            "read option " + VERSION_AS_OF + " = '" + version + "' is no version number");
      }
    }
    scala.Option<Object> micros =
        org.apache.spark.sql.catalyst.util.DateTimeUtils.stringToTimestamp(
            org.apache.spark.unsafe.types.UTF8String.fromString(timestamp.strip()),
            java.time.ZoneId.of(
                org.apache.spark.sql.internal.SQLConf.get().sessionLocalTimeZone()));
    if (micros.isEmpty()) {
      throw MosaicException.invalid(
          "read option "
              + TIMESTAMP_AS_OF
              + " = '"
              + timestamp
              + "' is no timestamp; write one as '2026-11-28 17:30:00' (the session's time zone)"
              + " or with an offset, '2026-11-28T17:30:00Z'");
    }
    return asOf(options, null, (Long) micros.get());
  }

  static final String VERSION_AS_OF = "versionAsOf";
  static final String TIMESTAMP_AS_OF = "timestampAsOf";

  /** Where the table lives and its pool, as scans and writes ship them to executors. */
  MosaicOptions options() {
    return options;
  }

  @Override
  public String name() {
    return options.tableName();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return writable
        ? EnumSet.of(
            TableCapability.BATCH_READ,
            TableCapability.BATCH_WRITE,
            TableCapability.TRUNCATE,
            TableCapability.OVERWRITE_BY_FILTER)
        : EnumSet.of(TableCapability.BATCH_READ);
  }

  /** The manifest's properties (SHOW TBLPROPERTIES): devices, row_group_rows, ... */
  @Override
  public Map<String, String> properties() {
    return MosaicSparkConf.tableProperties(options.location());
  }

  /** The version this table's scans read: the one it was loaded at, or the latest at the first. */
  synchronized Manifest readVersion() {
    if (manifest == null) {
      manifest = MosaicTable.open(options.location(), options.pool()).latest();
    }
    return manifest;
  }

  /** The version this table was loaded at, or the first scan read; null before either. */
  private synchronized Manifest loadedVersion() {
    return manifest;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap readOptions) {
    MosaicTable table = MosaicTable.open(options.location(), options.pool());
    Manifest version = readVersion();
    MosaicSparkConf conf = new MosaicSparkConf(readOptions, version.properties());
    // The sharing policy first: when both are bad, its error is the one a read has always shown.
    SharingPolicy policy = conf.sharingPolicy();
    return new MosaicScanBuilder(options, table, version, conf.pushdown(), policy);
  }

  /**
   * TRUNCATE TABLE (of a catalog's table, never of a version of it): one new version without rows;
   * older versions stay readable until gc.
   */
  @Override
  public boolean truncateTable() {
    MosaicTable.open(options.location(), options.pool()).truncate();
    return true;
  }

  /** {@value MosaicRowLevelOperation#ROW_ID}, which DELETE, UPDATE and MERGE INTO read. */
  @Override
  public MetadataColumn[] metadataColumns() {
    return new MetadataColumn[] {MosaicRowLevelOperation.ROW_ID_COLUMN};
  }

  @Override
  public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
    if (!writable) {
      throw MosaicException.invalid(
          "table "
              + name()
              + " is read-only here (a version read AS OF, or a path read); "
              + info.command()
              + " its latest version through the catalog");
    }
    return () -> new MosaicRowLevelOperation(this, info.command());
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new MosaicWriteBuilder(options, info.schema(), info.options(), loadedVersion());
  }
}
