package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.table.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * The one place where core's failures become what a Spark user catches (docs/spark.md, "Errors").
 *
 * <p>Spark has its own exception for one kind only: a missing table is {@link NoSuchTableException}
 * (an {@code AnalysisException} with condition {@code TABLE_OR_VIEW_NOT_FOUND}). Spark 4.2's other
 * error conditions each describe one Spark feature with a fixed message template (none says "the
 * storage is corrupt", "the commit lost a race" or "the device is full"), and a condition that is
 * not registered fails, so every other kind stays a {@link MosaicException}: its {@code kind()} is
 * the contract, and its message is core's. Spark passes it through unchanged on the driver (a
 * procedure, the catalog) and as the cause of the task failure on an executor (a scan, a write).
 */
final class SparkErrors {
  private SparkErrors() {}

  /**
   * What Spark should throw for {@code e}, raised while doing {@code context} (e.g. {@code CALL
   * mosaic.system.place}) on table {@code table} (null when no table is concerned).
   */
  static RuntimeException toSpark(MosaicException e, String context, Identifier table) {
    if (e instanceof TableNotFoundException && table != null) {
      return sneaky(new NoSuchTableException(table)); // Spark's message names the table
    }
    return new MosaicException(e.kind(), context + ": " + e.getMessage(), e);
  }

  /** A file-system failure core did not classify: an I/O error. */
  static MosaicException io(String context, IOException e) {
    return MosaicException.io(context + ": " + e.getMessage(), e);
  }

  /** As {@link #io(String, IOException)}, for an unchecked one. */
  static MosaicException io(String context, UncheckedIOException e) {
    return MosaicException.io(context + ": " + e.getMessage(), e);
  }

  /**
   * Throws Spark's checked {@code AnalysisException} from an interface method that declares none,
   * as Scala code (Spark's own) does; the return type only lets callers write {@code throw}.
   */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }
}
