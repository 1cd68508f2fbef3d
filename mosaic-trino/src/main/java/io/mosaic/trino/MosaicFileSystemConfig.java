package io.mosaic.trino;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;

/**
 * Whether the catalog reaches {@code s3://} through Trino's own S3 file system, by the property
 * Trino's Hive, Iceberg and Delta Lake catalogs use (docs/distributed-storage.md, "Trino catalogs
 * on S3"); without it, through Hadoop's S3A ({@code mosaic.hadoop.*}).
 */
// Not final: airlift's ConfigAssertions records defaults through a subclass proxy.
public class MosaicFileSystemConfig {
  private boolean nativeS3Enabled;

  public boolean isNativeS3Enabled() {
    return nativeS3Enabled;
  }

  @Config("fs.native-s3.enabled")
  @ConfigDescription(
      "Read and write s3:// devices and metadata through Trino's S3 file system (s3.* properties)"
          + " instead of Hadoop's S3A")
  public MosaicFileSystemConfig setNativeS3Enabled(boolean enabled) {
    this.nativeS3Enabled = enabled;
    return this;
  }
}
