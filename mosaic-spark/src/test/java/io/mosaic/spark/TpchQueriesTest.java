package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 22 TPC-H queries (the texts shipped in io.trino.tpch) over Mosaic tables return exactly what
 * Spark returns over the same data written as Parquet.
 */
class TpchQueriesTest {
  @TempDir Path dir;

  @Test
  void the22QueriesMatchSparkOverParquet() throws IOException {
    Files.createDirectories(dir.resolve("pool/ssd"));
    Files.createDirectories(dir.resolve("pool/hdd"));
    Path devices = dir.resolve("devices.toml");
    Files.writeString(
        devices,
        """
        [[device]]
        id = "ssd"
        path = "pool/ssd"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "60 ct"
        metadata = true

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "10 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "30 ct"
        """);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-tpch")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
    try {
      for (TpchTable<?> table : TpchTable.getTables()) {
        Dataset<Row> df = dataFrame(spark, table, 0.01);
        df.write().parquet(dir.resolve("parquet").resolve(table.getTableName()).toString());
        df.write()
            .format("mosaic")
            .mode("append")
            .save(dir.resolve("mosaic").resolve(table.getTableName()).toString());
      }
      int checked = 0;
      int withRows = 0;
      for (int q = 1; q <= 22; q++) {
        List<String> statements = statements(q);
        List<Row> parquet = run(spark, statements, "parquet");
        List<Row> mosaic = run(spark, statements, "mosaic");
        assertThat(mosaic).as("TPC-H q%d", q).isEqualTo(parquet);
        checked++;
        withRows += parquet.isEmpty() ? 0 : 1;
        System.out.println("TPC-H q" + q + ": " + parquet.size() + " rows");
      }
      assertThat(checked).isEqualTo(22);
      assertThat(withRows)
          .as("queries with a non-empty answer at SF 0.01")
          .isGreaterThanOrEqualTo(20);
    } finally {
      spark.stop();
    }
  }

  private List<Row> run(SparkSession spark, List<String> statements, String format) {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String path = dir.resolve(format).resolve(table.getTableName()).toString();
      Dataset<Row> df =
          format.equals("parquet")
              ? spark.read().parquet(path)
              : spark.read().format("mosaic").load(path);
      df.createOrReplaceTempView(table.getTableName());
    }
    List<Row> result = null;
    for (String s : statements) {
      result = spark.sql(s).collectAsList();
    }
    return result;
  }

  /**
   * Query {@code q}'s statements in Spark's dialect: the view of q15 becomes a temporary one, and
   * Trino's typed decimal literals ({@code decimal '0.06'}) become casts.
   */
  private static List<String> statements(int q) throws IOException {
    String text;
    try (InputStream in =
        TpchTable.class.getResourceAsStream("/io/trino/tpch/queries/q" + q + ".sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    text =
        text.replaceAll("(?m)^--.*$", "")
            .replace("CREATE OR REPLACE VIEW", "CREATE OR REPLACE TEMPORARY VIEW")
            .replaceAll("(?i)decimal '([0-9.]+)'", "CAST($1 AS DECIMAL(12,2))");
    return Arrays.stream(text.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static <E extends TpchEntity> Dataset<Row> dataFrame(
      SparkSession spark, TpchTable<E> table, double sf) {
    List<TpchColumn<E>> columns = table.getColumns();
    StructType schema = new StructType();
    for (TpchColumn<E> c : columns) {
      DataType type =
          switch (c.getType().getBase()) {
            case IDENTIFIER -> DataTypes.LongType;
            case INTEGER -> DataTypes.IntegerType;
            case DATE -> DataTypes.DateType;
            case DOUBLE -> DataTypes.createDecimalType(12, 2);
            case VARCHAR -> DataTypes.StringType;
          };
      schema = schema.add(c.getColumnName(), type, false);
    }
    List<Row> rows = new ArrayList<>();
    for (E e : table.createGenerator(sf, 1, 1)) {
      Object[] values = new Object[columns.size()];
      for (int i = 0; i < values.length; i++) {
        TpchColumn<E> c = columns.get(i);
        values[i] =
            switch (c.getType().getBase()) {
              case IDENTIFIER -> c.getIdentifier(e);
              case INTEGER -> c.getInteger(e);
              case DATE -> Date.valueOf(LocalDate.ofEpochDay(c.getDate(e)));
              case DOUBLE -> BigDecimal.valueOf(Math.round(c.getDouble(e) * 100), 2);
              case VARCHAR -> c.getString(e);
            };
      }
      rows.add(RowFactory.create(values));
    }
    return spark.createDataFrame(rows, schema);
  }
}
