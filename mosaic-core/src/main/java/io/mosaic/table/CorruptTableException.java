package io.mosaic.table;

/**
 * Table metadata or data failed a check (a manifest that is truncated or fails its checksum, a
 * segment whose checksum differs, a file that is missing). Committed data is never modified when
 * this is thrown; the message names table, file and, where known, device and column.
 */
public final class CorruptTableException extends RuntimeException {
  public CorruptTableException(String message) {
    super(message);
  }

  public CorruptTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
