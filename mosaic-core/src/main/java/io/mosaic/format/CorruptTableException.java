package io.mosaic.format;

import io.mosaic.MosaicException;

/**
 * Table metadata or data failed a check (a manifest that is truncated or fails its checksum, a
 * segment whose checksum differs, a file that is missing). Committed data is never modified when
 * this is thrown; the message names table, file and, where known, device and column.
 */
public final class CorruptTableException extends MosaicException {
  public CorruptTableException(String message) {
    super(Kind.CORRUPT, message);
  }

  public CorruptTableException(String message, Throwable cause) {
    super(Kind.CORRUPT, message, cause);
  }
}
