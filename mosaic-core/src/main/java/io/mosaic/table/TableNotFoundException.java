package io.mosaic.table;

import io.mosaic.MosaicException;

/** No Mosaic table exists at a location. */
public final class TableNotFoundException extends MosaicException {
  public TableNotFoundException(String message) {
    super(Kind.NOT_FOUND, message);
  }
}
