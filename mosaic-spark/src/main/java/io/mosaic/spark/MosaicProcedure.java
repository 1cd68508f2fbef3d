package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.ResultColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Mosaic maintenance procedure of {@link MosaicCatalog} ({@code CALL mosaic.system.<name>(...)}).
 * Its parameters do not depend on the argument types, so it binds to itself. It runs in the driver
 * when Spark analyses the CALL, and returns one result set.
 */
abstract class MosaicProcedure implements UnboundProcedure, BoundProcedure {
  protected final MosaicCatalog catalog;
  private final String name;
  private final String description;
  private final StructType outputType;
  private final ProcedureParameter[] parameters;

  /**
   * A procedure whose first parameter is the required {@code table}, followed by {@code more}; its
   * result set has the library's {@code columns}.
   */
  MosaicProcedure(
      MosaicCatalog catalog,
      String name,
      String description,
      List<ResultColumn> columns,
      ProcedureParameter... more) {
    this.catalog = catalog;
    this.name = name;
    this.description = description;
    this.outputType = schema(columns);
    this.parameters = new ProcedureParameter[more.length + 1];
    this.parameters[0] = ProcedureParameter.in("table", DataTypes.StringType).build();
    System.arraycopy(more, 0, this.parameters, 1, more.length);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public ProcedureParameter[] parameters() {
    return parameters.clone();
  }

  /**
   * An optional parameter. Its default is NULL where the library holds the default, so there is one
   * of each.
   */
  static ProcedureParameter optional(String name, DataType type) {
    return ProcedureParameter.in(name, type).defaultValue("NULL").build();
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public boolean isDeterministic() {
    return false; // reads the table's latest version, and may move data
  }

  /** The result rows, in the order of the result columns. */
  abstract List<InternalRow> run(InternalRow args) throws IOException;

  @Override
  public Iterator<Scan> call(InternalRow args) {
    try {
      List<InternalRow> rows = run(args);
      return List.<Scan>of(new Result(outputType, rows.toArray(new InternalRow[0]))).iterator();
    } catch (MosaicException e) {
      // Spark shows the message as is: name the procedure so the user knows which call failed.
      // A missing table stays core's error: it names the warehouse and how to list its tables.
      throw SparkErrors.toSpark(e, "CALL " + catalog.name() + ".system." + name(), null);
    } catch (IllegalArgumentException e) {
      throw SparkErrors.toSpark(
          MosaicException.invalid(e.getMessage()),
          "CALL " + catalog.name() + ".system." + name(),
          null);
    } catch (IOException e) {
      throw SparkErrors.io("CALL " + catalog.name() + ".system." + name(), e);
    } catch (UncheckedIOException e) {
      throw SparkErrors.io("CALL " + catalog.name() + ".system." + name(), e);
    }
  }

  /** A procedure's result set. */
  record Result(StructType readSchema, InternalRow[] rows) implements LocalScan {}

  static String string(InternalRow args, int i) {
    return args.isNullAt(i) ? null : args.getUTF8String(i).toString();
  }

  static Boolean bool(InternalRow args, int i) {
    return args.isNullAt(i) ? null : args.getBoolean(i);
  }

  static Double real(InternalRow args, int i) {
    return args.isNullAt(i) ? null : args.getDouble(i);
  }

  /** The library's executor over this catalog's pool and tables (docs/operations.md). */
  MaintenanceExecutor executor() {
    return new MaintenanceExecutor(catalog.pool(), catalog::openTable);
  }

  /** A library result schema as Spark's: the same names and types Trino shows. */
  static StructType schema(List<ResultColumn> columns) {
    StructType type = new StructType();
    for (ResultColumn c : columns) {
      DataType t =
          switch (c.type()) {
            case STRING -> DataTypes.StringType;
            case BOOLEAN -> DataTypes.BooleanType;
            case INT -> DataTypes.IntegerType;
            case LONG -> DataTypes.LongType;
            case DOUBLE -> DataTypes.DoubleType;
            case TIMESTAMP -> DataTypes.TimestampType;
          };
      type = type.add(c.name(), t, c.nullable());
    }
    return type;
  }

  /** Library result rows as Spark's internal rows. */
  static List<InternalRow> rows(List<List<Object>> rows) {
    List<InternalRow> out = new ArrayList<>();
    for (List<Object> row : rows) {
      Object[] values = row.toArray();
      for (int i = 0; i < values.length; i++) {
        if (values[i] instanceof String s) {
          values[i] = UTF8String.fromString(s);
        } else if (values[i] instanceof java.time.Instant t) {
          values[i] = org.apache.spark.sql.catalyst.util.DateTimeUtils.instantToMicros(t);
        }
      }
      out.add(new GenericInternalRow(values));
    }
    return out;
  }
}
