package io.mosaic.trino;

import com.google.inject.Binder;
import com.google.inject.Singleton;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.mosaic.storage.StorageOpener;
import io.mosaic.trino.storage.TrinoStorageOpener;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.s3.FileSystemS3;
import io.trino.filesystem.s3.S3FileSystemConfig;
import io.trino.filesystem.s3.S3FileSystemModule;
import io.trino.plugin.base.jmx.ConnectorObjectNameGeneratorModule;
import io.trino.plugin.base.jmx.MBeanServerModule;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.security.ConnectorIdentity;
import org.weakref.jmx.guice.MBeanModule;

/**
 * The catalog's {@link StorageOpener}: Hadoop's file systems, or with {@code fs.native-s3.enabled}
 * Trino's S3 file system for {@code s3://}, configured by the catalog's {@code s3.*} properties as
 * Trino's Iceberg catalogs configure theirs (docs/distributed-storage.md, "Trino catalogs on S3").
 */
final class MosaicFileSystemModule extends AbstractConfigurationAwareModule {
  /**
   * Who Mosaic acts as on S3: device and metadata files belong to the catalog, not to the user of a
   * query (s3.security-mapping rules match this user).
   */
  static final ConnectorIdentity IDENTITY = ConnectorIdentity.ofUser("mosaic");

  private final String catalogName;
  private final ConnectorContext context;

  MosaicFileSystemModule(String catalogName, ConnectorContext context) {
    this.catalogName = catalogName;
    this.context = context;
  }

  @Override
  protected void setup(Binder binder) {
    MosaicFileSystemConfig config = buildConfigObject(MosaicFileSystemConfig.class);
    if (!config.isNativeS3Enabled()) {
      binder.bind(StorageOpener.class).toProvider(HadoopOpener.class).in(Singleton.class);
      return;
    }
    install(new S3FileSystemModule());
    // What S3FileSystemModule needs from its host, as Trino's Iceberg connector gives it: the
    // server's OpenTelemetry and an MBean exporter for its request statistics.
    install(new MBeanModule());
    install(new MBeanServerModule());
    install(new ConnectorObjectNameGeneratorModule("io.mosaic.trino", "mosaic.trino"));
    binder.bind(OpenTelemetry.class).toInstance(context.getOpenTelemetry());
    binder.bind(CatalogName.class).toInstance(new CatalogName(catalogName));
    binder.bind(StorageOpener.class).toProvider(TrinoS3Opener.class).in(Singleton.class);
  }

  private static final class HadoopOpener implements com.google.inject.Provider<StorageOpener> {
    private final MosaicConfig config;

    @com.google.inject.Inject
    HadoopOpener(MosaicConfig config) {
      this.config = config;
    }

    @Override
    public StorageOpener get() {
      return StorageOpener.hadoop(config.hadoopConfiguration());
    }
  }

  private static final class TrinoS3Opener implements com.google.inject.Provider<StorageOpener> {
    private final MosaicConfig config;
    private final S3FileSystemConfig s3;
    private final TrinoFileSystemFactory factory;

    @com.google.inject.Inject
    TrinoS3Opener(
        MosaicConfig config, S3FileSystemConfig s3, @FileSystemS3 TrinoFileSystemFactory factory) {
      this.config = config;
      this.s3 = s3;
      this.factory = factory;
    }

    @Override
    public StorageOpener get() {
      String endpoint =
          s3.getEndpoint() != null
              ? s3.getEndpoint()
              : "the AWS endpoint of region "
                  + (s3.getRegion() == null ? "(unset)" : s3.getRegion());
      return new TrinoStorageOpener(
          factory.create(IDENTITY),
          s3.getStorageClass().name(),
          endpoint,
          StorageOpener.hadoop(config.hadoopConfiguration()));
    }
  }
}
