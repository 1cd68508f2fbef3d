package io.mosaic.spark;

import io.mosaic.table.MosaicTable;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** {@code spark.read.format("mosaic")} and {@code df.write.format("mosaic")}. */
public final class MosaicDataSource implements TableProvider, DataSourceRegister {
  @Override
  public String shortName() {
    return "mosaic";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    MosaicOptions o = MosaicOptions.resolve(options);
    return SparkTypes.toSpark(MosaicTable.open(o.rootPath(), o.pool()).latest().schema());
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new MosaicSparkTable(MosaicOptions.resolve(properties), schema);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return true; // writes create the table from the DataFrame's schema
  }
}
