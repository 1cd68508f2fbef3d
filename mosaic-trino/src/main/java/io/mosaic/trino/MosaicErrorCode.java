package io.mosaic.trino;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.USER_ERROR;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

/** Mosaic's own error codes, in the range Trino leaves to connectors. */
public enum MosaicErrorCode implements ErrorCodeSupplier {
  MOSAIC_BAD_NAME(0, USER_ERROR),
  MOSAIC_BAD_TABLE_PROPERTY(1, USER_ERROR),
  MOSAIC_IO_ERROR(2, EXTERNAL),
  MOSAIC_CORRUPT_TABLE(3, EXTERNAL),
  MOSAIC_COMMIT_CONFLICT(4, EXTERNAL),
  MOSAIC_BAD_DEVICE(5, USER_ERROR),
  /**
   * The planner cannot place a table: no device model, no recorded scans, no feasible placement.
   */
  MOSAIC_CANNOT_PLACE(6, USER_ERROR);

  private final ErrorCode errorCode;

  MosaicErrorCode(int code, ErrorType type) {
    errorCode = new ErrorCode(code + 0x0519_0000, name(), type);
  }

  @Override
  public ErrorCode toErrorCode() {
    return errorCode;
  }
}
