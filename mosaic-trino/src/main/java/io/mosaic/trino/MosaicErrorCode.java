package io.mosaic.trino;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INSUFFICIENT_RESOURCES;
import static io.trino.spi.ErrorType.USER_ERROR;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

/**
 * Mosaic's own error codes, in the range Trino leaves to connectors. {@link MosaicErrors} maps each
 * kind of core's {@code MosaicException} to one of these (or to Trino's standard code where Trino
 * has one). Codes keep their numbers: new ones are appended.
 */
public enum MosaicErrorCode implements ErrorCodeSupplier {
  MOSAIC_BAD_NAME(0, USER_ERROR),
  MOSAIC_BAD_TABLE_PROPERTY(1, USER_ERROR),
  MOSAIC_IO_ERROR(2, EXTERNAL),
  MOSAIC_CORRUPT_TABLE(3, EXTERNAL),
  MOSAIC_COMMIT_CONFLICT(4, EXTERNAL),
  /** No longer raised (a bad device is now MOSAIC_NOT_FOUND or MOSAIC_INVALID_ARGUMENT). */
  MOSAIC_BAD_DEVICE(5, USER_ERROR),
  /**
   * The planner cannot place a table: no device model, no recorded scans, no feasible placement.
   */
  MOSAIC_CANNOT_PLACE(6, USER_ERROR),
  /** A request, option or configuration value is wrong. */
  MOSAIC_INVALID_ARGUMENT(7, USER_ERROR),
  /** A column, device, version or file that the request names does not exist. */
  MOSAIC_NOT_FOUND(8, USER_ERROR),
  /** A device has no room for the write: free space or buy capacity, then retry. */
  MOSAIC_DEVICE_FULL(9, INSUFFICIENT_RESOURCES);

  private final ErrorCode errorCode;

  MosaicErrorCode(int code, ErrorType type) {
    errorCode = new ErrorCode(code + 0x0519_0000, name(), type);
  }

  @Override
  public ErrorCode toErrorCode() {
    return errorCode;
  }
}
