package io.mosaic.trino;

import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import java.util.Map;

/** Builds a catalog's connector from its properties file, validated by airlift at startup. */
public final class MosaicConnectorFactory implements ConnectorFactory {
  @Override
  public String getName() {
    return "mosaic";
  }

  @Override
  public Connector create(
      String catalogName, Map<String, String> config, ConnectorContext context) {
    Bootstrap app =
        new Bootstrap(
            new MosaicModule(),
            binder -> {
              binder.bind(ConnectorContext.class).toInstance(context);
              binder.bind(NodeManager.class).toInstance(context.getNodeManager());
            });
    Injector injector =
        app.doNotInitializeLogging().setRequiredConfigurationProperties(config).initialize();
    return injector.getInstance(MosaicConnector.class);
  }
}
