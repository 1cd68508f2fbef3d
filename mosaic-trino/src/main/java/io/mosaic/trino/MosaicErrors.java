package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_CANNOT_PLACE;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_COMMIT_CONFLICT;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_CORRUPT_TABLE;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_DEVICE_FULL;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_INVALID_ARGUMENT;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND;

import io.mosaic.MosaicException;
import io.mosaic.table.TableNotFoundException;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.TrinoException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * The one place where core's failures become Trino errors: each {@link MosaicException.Kind} has
 * one code, a user error where the user can fix the request, an external error where the storage
 * failed, insufficient resources for a full device. Core's message is kept as it is.
 */
final class MosaicErrors {
  private MosaicErrors() {}

  /** The Trino error code of a kind; a missing table is Trino's own {@code TABLE_NOT_FOUND}. */
  static ErrorCodeSupplier code(MosaicException e) {
    if (e instanceof TableNotFoundException) {
      return TABLE_NOT_FOUND;
    }
    return switch (e.kind()) {
      case INVALID_ARGUMENT -> MOSAIC_INVALID_ARGUMENT;
      case NOT_FOUND -> MOSAIC_NOT_FOUND;
      case CORRUPT -> MOSAIC_CORRUPT_TABLE;
      case CONFLICT -> MOSAIC_COMMIT_CONFLICT;
      case DEVICE_FULL -> MOSAIC_DEVICE_FULL;
      case INFEASIBLE -> MOSAIC_CANNOT_PLACE;
      case UNSUPPORTED -> NOT_SUPPORTED;
      case IO -> MOSAIC_IO_ERROR;
    };
  }

  static TrinoException toTrino(MosaicException e) {
    return new TrinoException(code(e), e.getMessage(), e);
  }

  /** As {@link #toTrino(MosaicException)}, with what was being done before core's message. */
  static TrinoException toTrino(MosaicException e, String context) {
    return new TrinoException(code(e), context + ": " + e.getMessage(), e);
  }

  /**
   * Runs a core call, turning its failures into Trino errors. A file-system failure that core has
   * not yet given a kind (an {@link UncheckedIOException}) is an I/O error.
   */
  static <T> T call(Supplier<T> action) {
    try {
      return action.get();
    } catch (MosaicException e) {
      throw toTrino(e);
    } catch (UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    }
  }
}
