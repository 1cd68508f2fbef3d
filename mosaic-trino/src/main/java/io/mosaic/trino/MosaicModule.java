package io.mosaic.trino;

import static io.airlift.configuration.ConfigBinder.configBinder;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import com.google.inject.multibindings.Multibinder;
import io.trino.spi.procedure.Procedure;

/** Guice wiring of one catalog: one instance of each SPI role. */
final class MosaicModule implements Module {
  @Override
  public void configure(Binder binder) {
    configBinder(binder).bindConfig(MosaicConfig.class);
    binder.bind(MosaicStorage.class).in(Scopes.SINGLETON);
    binder.bind(MosaicMetadata.class).in(Scopes.SINGLETON);
    binder.bind(MosaicSessionProperties.class).in(Scopes.SINGLETON);
    binder.bind(MosaicSplitManager.class).in(Scopes.SINGLETON);
    binder.bind(MosaicPageSourceProvider.class).in(Scopes.SINGLETON);
    binder.bind(MosaicPageSinkProvider.class).in(Scopes.SINGLETON);
    binder.bind(MosaicConnector.class).in(Scopes.SINGLETON);
    Multibinder.newSetBinder(binder, Procedure.class)
        .addBinding()
        .toProvider(MoveColumnsProcedure.class)
        .in(Scopes.SINGLETON);
    Multibinder.newSetBinder(binder, Procedure.class)
        .addBinding()
        .toProvider(PlaceProcedure.class)
        .in(Scopes.SINGLETON);
    Multibinder.newSetBinder(binder, Procedure.class)
        .addBinding()
        .toProvider(MaintainProcedure.class)
        .in(Scopes.SINGLETON);
  }
}
