package io.mosaic.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ReusedSubqueryExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.benchmark.TPCDSSchemaHelper;
import org.apache.spark.sql.execution.exchange.ReusedExchangeExec;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * TPC-DS for Spark tests and benchmarks: Spark's own query texts and table schemas, from Spark's
 * sql/core test jar ({@code tpcds/qNN.sql}, {@code TPCDSSchema}), and what a plan reuses.
 */
public final class TpcdsSpark {
  private TpcdsSpark() {}

  /** Query {@code name} (e.g. {@code q14a}) as Spark's TPC-DS suites run it. */
  public static String query(String name) {
    try (InputStream in = TpcdsSpark.class.getResourceAsStream("/tpcds/" + name + ".sql")) {
      if (in == null) {
        throw new IllegalArgumentException("no TPC-DS query " + name + " in Spark's test jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replaceAll("(?m)^--.*$", "")
          .strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The 24 tables with Spark's TPC-DS schema, {@code char(n)} and {@code varchar(n)} read as
   * strings (as Mosaic stores them), by name.
   */
  public static Map<String, StructType> schemas() {
    Map<String, StructType> schemas = new TreeMap<>();
    CollectionConverters.asJava(TPCDSSchemaHelper.getTableColumns())
        .forEach((name, schema) -> schemas.put(name, strings(schema)));
    return schemas;
  }

  private static StructType strings(StructType schema) {
    StructType result = new StructType();
    for (StructField f : schema.fields()) {
      boolean text = f.dataType() instanceof CharType || f.dataType() instanceof VarcharType;
      result = result.add(f.name(), text ? DataTypes.StringType : f.dataType(), f.nullable());
    }
    return result;
  }

  /** The tables among {@code tables} that {@code sql} names. */
  public static List<String> tablesOf(String sql, Iterable<String> tables) {
    List<String> used = new ArrayList<>();
    for (String t : tables) {
      if (Pattern.compile("\\b" + t + "\\b").matcher(sql).find()) {
        used.add(t);
      }
    }
    return used;
  }

  /** How many exchanges and subqueries an executed plan reuses. */
  public record Reuse(int exchanges, int subqueries) {
    @Override
    public String toString() {
      return exchanges + " exchanges, " + subqueries + " subqueries";
    }
  }

  /**
   * What the executed plan of {@code df} reuses, counted over the whole plan: with adaptive
   * execution, its final plan, inside query stages and subqueries. Run the query first when
   * adaptive execution is on: Spark reuses exchanges as it creates the stages.
   */
  public static Reuse reuse(Dataset<Row> df) {
    int[] counts = new int[2];
    walk(
        df.queryExecution().executedPlan(),
        p -> {
          if (p instanceof ReusedExchangeExec) {
            counts[0]++;
          } else if (p instanceof ReusedSubqueryExec) {
            counts[1]++;
          }
        });
    return new Reuse(counts[0], counts[1]);
  }

  private static void walk(SparkPlan plan, Consumer<SparkPlan> visit) {
    visit.accept(plan);
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      walk(adaptive.executedPlan(), visit);
    } else if (plan instanceof QueryStageExec stage) {
      walk(stage.plan(), visit);
    }
    for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
      walk(child, visit);
    }
    for (SparkPlan subquery : CollectionConverters.asJava(plan.subqueries())) {
      walk(subquery, visit);
    }
  }
}
