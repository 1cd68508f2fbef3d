package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.table.Manifest;
import io.mosaic.table.Migrator;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Mosaic maintenance procedure of {@link MosaicCatalog} ({@code CALL mosaic.system.<name>(...)}).
 * Its parameters do not depend on the argument types, so it binds to itself. It runs in the driver
 * when Spark analyses the CALL, and returns one result set.
 */
abstract class MosaicProcedure implements UnboundProcedure, BoundProcedure {
  protected final MosaicCatalog catalog;

  MosaicProcedure(MosaicCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public boolean isDeterministic() {
    return false; // reads the table's latest version, and may move data
  }

  /** The result rows, in the order of {@link #outputType()}. */
  abstract List<InternalRow> run(InternalRow args) throws IOException;

  abstract StructType outputType();

  @Override
  public Iterator<Scan> call(InternalRow args) {
    try {
      List<InternalRow> rows = run(args);
      return List.<Scan>of(new Result(outputType(), rows.toArray(new InternalRow[0]))).iterator();
    } catch (MosaicException e) {
      // Spark shows the message as is: name the procedure so the user knows which call failed.
      throw SparkErrors.toSpark(e, "CALL " + catalog.name() + ".system." + name(), null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "CALL " + catalog.name() + ".system." + name() + ": " + e.getMessage(), e);
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

  static UTF8String utf8(String s) {
    return s == null ? null : UTF8String.fromString(s);
  }

  /** Applies a column {@code ->} device placement to a table online, as {@code mosaic migrate}. */
  record Migration(Migrator.Plan plan, Manifest after) {
    /**
     * Plans, checks space, moves, and starts a new trace epoch when something moved (the scans
     * recorded so far were timed on the old placement, paper Section 3.4).
     */
    static Migration apply(MosaicTable table, Map<String, String> placement) throws IOException {
      Migrator migrator = new Migrator(table);
      Migrator.Plan plan = migrator.plan(placement);
      if (plan.moves().isEmpty()) {
        return new Migration(plan, table.latest());
      }
      migrator.checkSpace(plan);
      Manifest after = migrator.apply(plan, new Migrator.Listener() {});
      new TraceLog(table.root()).newEpoch();
      return new Migration(plan, after);
    }
  }
}
