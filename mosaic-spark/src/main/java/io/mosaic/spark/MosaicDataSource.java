package io.mosaic.spark;

import io.mosaic.table.MosaicTable;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code spark.read.format("mosaic")} and {@code df.write.format("mosaic")}.
 *
 * <p>Spark hands a DSv2 {@code TableProvider} only append and overwrite saves; {@code
 * errorifexists} (the default) and {@code ignore} are refused unless the provider's tables lack
 * batch writes, in which case Spark passes the save mode here ({@link #createRelation}). So the
 * tables this provider returns are read-only, the save mode is decided in {@link #createRelation},
 * and the rows are then written by Spark's DSv2 write (tasks' segments, one driver commit) through
 * a writable table, asked for with {@link #SAVE_MODE_APPLIED}.
 */
public final class MosaicDataSource
    implements TableProvider, DataSourceRegister, CreatableRelationProvider {
  /** Option set by {@link #createRelation}: the save mode is settled, return a writable table. */
  static final String SAVE_MODE_APPLIED = "mosaic.save-mode-applied";

  @Override
  public String shortName() {
    return "mosaic";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    SparkQueryTimes.register();
    MosaicOptions o = MosaicSparkConf.location(options);
    MosaicSparkTable asOf = MosaicSparkTable.asOf(o, options);
    return asOf != null
        ? asOf.schema()
        : SparkTypes.toSpark(MosaicTable.open(o.location(), o.pool()).latest().schema());
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    SparkQueryTimes.register();
    boolean writable = "true".equals(properties.get(SAVE_MODE_APPLIED));
    MosaicOptions o = MosaicSparkConf.location(properties);
    MosaicSparkTable asOf = writable ? null : MosaicSparkTable.asOf(o, properties);
    return asOf != null ? asOf : new MosaicSparkTable(o, schema, writable);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return true; // writes create the table from the DataFrame's schema
  }

  /**
   * Spark's default refuses {@code TIME} for V1 writers; Mosaic stores it ({@link SparkTypes}) and
   * writes through its V2 table.
   */
  @Override
  public boolean supportsDataType(DataType type) {
    return type instanceof TimeType || CreatableRelationProvider.super.supportsDataType(type);
  }

  @Override
  public BaseRelation createRelation(
      SQLContext sqlContext,
      SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters,
      Dataset<Row> data) {
    Map<String, String> options = new HashMap<>(CollectionConverters.asJava(parameters));
    MosaicOptions o = MosaicSparkConf.location(options);
    boolean exists = MosaicTable.exists(o.location(), o.pool());
    if (exists && mode == SaveMode.ErrorIfExists) {
      throw new IllegalStateException(
          "a Mosaic table already exists at "
              + o.location()
              + " and the save mode is errorifexists (Spark's default): use .mode(\"append\") to"
              + " add the rows, .mode(\"overwrite\") to replace the table's rows, or"
              + " .mode(\"ignore\") to leave the table as it is");
    }
    if (!(exists && mode == SaveMode.Ignore)) {
      options.put(SAVE_MODE_APPLIED, "true");
      data.write()
          .format(MosaicDataSource.class.getName())
          .options(options)
          .mode(mode == SaveMode.Overwrite ? SaveMode.Overwrite : SaveMode.Append)
          .save();
    }
    StructType schema =
        SparkTypes.toSpark(MosaicTable.open(o.location(), o.pool()).latest().schema());
    return new BaseRelation() {
      @Override
      public SQLContext sqlContext() {
        return sqlContext;
      }

      @Override
      public StructType schema() {
        return schema;
      }
    };
  }
}
