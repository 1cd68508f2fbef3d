package io.mosaic.trino;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import java.util.List;

/**
 * The plugin Trino finds in {@code plugin/mosaic}: one connector, {@code connector.name=mosaic}.
 */
public final class MosaicPlugin implements Plugin {
  @Override
  public Iterable<ConnectorFactory> getConnectorFactories() {
    return List.of(new MosaicConnectorFactory());
  }
}
