package io.mosaic.table;

/** A commit lost a race it cannot be rebased over (e.g. a migration whose segment was replaced). */
public final class TableConflictException extends RuntimeException {
  public TableConflictException(String message) {
    super(message);
  }
}
