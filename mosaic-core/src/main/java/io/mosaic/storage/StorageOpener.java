package io.mosaic.storage;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * How a device pool reaches the folders of non-local URIs: its devices' and its tables' metadata
 * ({@code hdfs://}, {@code s3://}), so an engine can put its own file system under Mosaic's bytes
 * (docs/format.md, "Storage backends"). The default, {@link #hadoop}, is {@link Storages}' Hadoop
 * file systems; Trino's catalogs give one over the catalog's {@code TrinoFileSystem} for {@code
 * s3://}. Local paths never come here.
 */
public interface StorageOpener {
  /**
   * A new storage rooted at {@code uri}, for a device whose objects get {@code storageClass} (an S3
   * storage class, docs/configuration.md) where one is set. Fails with a {@link
   * io.mosaic.MosaicException} naming the URI and the fix where the opener can tell what is wrong.
   */
  Storage open(URI uri, Optional<String> storageClass) throws IOException;

  /**
   * The storage rooted at {@code uri}, opened once and then reused, never closed: for a location
   * reached again and again, such as a table's metadata opened by every scan task.
   */
  Storage shared(URI uri) throws IOException;

  /** Hadoop's file systems with {@code conf} (null: the configuration files on the class path). */
  static StorageOpener hadoop(Configuration conf) {
    return new Hadoop(conf);
  }

  /**
   * {@link Storages#open(URI, Configuration)} and {@link Storages#shared(URI, Configuration)}: the
   * storage class is S3A's {@code fs.s3a.create.storage.class}, in the device's own copy of the
   * settings.
   */
  record Hadoop(Configuration conf) implements StorageOpener {
    @Override
    public Storage open(URI uri, Optional<String> storageClass) throws IOException {
      Configuration c = conf == null ? new Configuration() : conf;
      if (storageClass.isPresent()) {
        c = new Configuration(c);
        c.set("fs.s3a.create.storage.class", storageClass.get());
      }
      return Storages.open(uri, c);
    }

    @Override
    public Storage shared(URI uri) throws IOException {
      return Storages.shared(uri, conf);
    }
  }
}
