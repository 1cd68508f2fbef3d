package io.mosaic.table;

/** No Mosaic table exists at a location. */
public final class TableNotFoundException extends RuntimeException {
  public TableNotFoundException(String message) {
    super(message);
  }
}
