package io.mosaic.table;

import io.mosaic.MosaicException;

/** A commit lost a race it cannot be rebased over (e.g. a migration whose segment was replaced). */
public final class TableConflictException extends MosaicException {
  public TableConflictException(String message) {
    super(Kind.CONFLICT, message);
  }
}
