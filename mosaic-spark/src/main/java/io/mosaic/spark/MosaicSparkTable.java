package io.mosaic.spark;

import io.mosaic.table.MosaicTable;
import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A Mosaic table as Spark sees it (DSv2 {@code Table}): batch reads and writes. */
final class MosaicSparkTable implements SupportsRead, SupportsWrite {
  private final MosaicOptions options;
  private final StructType schema;

  MosaicSparkTable(MosaicOptions options, StructType schema) {
    this.options = options;
    this.schema =
        MosaicTable.exists(options.rootPath())
            ? SparkTypes.toSpark(
                MosaicTable.open(options.rootPath(), options.pool()).latest().schema())
            : schema;
  }

  @Override
  public String name() {
    return options.rootPath().getFileName().toString();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(
        TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    return new MosaicScanBuilder(options, MosaicTable.open(options.rootPath(), options.pool()));
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new MosaicWriteBuilder(options, info.schema());
  }
}
