package io.mosaic.trino;

import com.google.inject.CreationException;
import com.google.inject.Injector;
import com.google.inject.spi.Message;
import io.airlift.bootstrap.Bootstrap;
import io.mosaic.MosaicException;
import io.trino.spi.NodeManager;
import io.trino.spi.TrinoException;
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
            new MosaicFileSystemModule(catalogName, context),
            binder -> {
              binder.bind(ConnectorContext.class).toInstance(context);
              binder.bind(NodeManager.class).toInstance(context.getNodeManager());
            });
    Injector injector;
    try {
      injector =
          app.doNotInitializeLogging().setRequiredConfigurationProperties(config).initialize();
    } catch (CreationException e) {
      throw startupFailure(catalogName, e);
    }
    return injector.getInstance(MosaicConnector.class);
  }

  /**
   * A catalog that cannot start because of its own settings (a {@code devices.toml} that does not
   * parse, a metadata directory that is a file) fails with what is wrong, as core or the check said
   * it, and not with Guice's report, whose message holds the cause's stack trace.
   */
  static RuntimeException startupFailure(String catalogName, CreationException e) {
    for (Message m : e.getErrorMessages()) {
      String context = "catalog " + catalogName + " cannot start";
      if (m.getCause() instanceof MosaicException cause) {
        return MosaicErrors.toTrino(cause, context);
      }
      if (m.getCause() instanceof IllegalArgumentException cause) {
        return new TrinoException(
            MosaicErrorCode.MOSAIC_INVALID_ARGUMENT, context + ": " + cause.getMessage(), e);
      }
    }
    return e;
  }
}
