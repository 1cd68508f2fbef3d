package io.mosaic.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** Mosaic commits per statement (one manifest version per write), so one handle serves all. */
public enum MosaicTransactionHandle implements ConnectorTransactionHandle {
  INSTANCE
}
