package io.mosaic.spark;

import io.mosaic.format.TableProperties;

/**
 * Every setting the Spark module reads, with where Spark users set it (docs/spark.md, "Options,
 * session conf and table properties", and "SQL" for the catalog): the one place their names, scopes
 * and types live. {@link MosaicSparkConf} resolves every one of them.
 */
enum SparkSetting {
  /** The pool's devices.toml: a read/write option, session conf or table property. */
  DEVICES("devices", Scope.TABLE, Type.PATH),
  /** Whether filters skip row groups by their statistics. */
  PUSHDOWN("pushdown", Scope.TABLE, Type.BOOLEAN),
  /** Rows per row group of a new table. */
  ROW_GROUP_ROWS(TableProperties.ROW_GROUP_ROWS, Scope.TABLE, Type.INT),
  /** Where a new table's columns go. */
  DEFAULT_DEVICE(TableProperties.DEFAULT_DEVICE, Scope.TABLE, Type.STRING),
  /**
   * How a read shares its chunk reads with concurrent reads of the executor (docs/cooperative-
   * scans.md): normal, attach, elevator or relevance.
   */
  SHARING_POLICY("sharing_policy", Scope.TABLE, Type.STRING),
  /** Memory of an executor's shared scan buffer (one per sharing policy in use but normal). */
  SHARED_BUFFER_MEMORY("shared_buffer_memory", Scope.EXECUTOR, Type.SIZE),
  /** Threads decoding column chunks in each executor JVM. */
  DECODE_THREADS("decode_threads", Scope.EXECUTOR, Type.INT),
  /** Off-heap memory of decoded vectors an executor keeps for later scans. */
  VECTOR_POOL_MEMORY("vector_pool_memory", Scope.EXECUTOR, Type.SIZE),
  /** The catalog's pool: {@code spark.sql.catalog.<name>.devices}. */
  CATALOG_DEVICES("devices", Scope.CATALOG, Type.PATH),
  /** The catalog's directory of namespaces: {@code spark.sql.catalog.<name>.warehouse}. */
  WAREHOUSE("warehouse", Scope.CATALOG, Type.PATH);

  /**
   * Where a setting is read: a table setting from the option, the session conf {@code
   * spark.mosaic.<name>} or the table property, in that order; an executor setting from the
   * application conf; a catalog setting from the catalog's own options.
   */
  enum Scope {
    TABLE,
    EXECUTOR,
    CATALOG
  }

  enum Type {
    BOOLEAN,
    INT,
    SIZE,
    PATH,
    STRING
  }

  static final String CONF_PREFIX = "spark.mosaic.";

  private final String key;
  private final Scope scope;
  private final Type type;

  SparkSetting(String key, Scope scope, Type type) {
    this.key = key;
    this.scope = scope;
    this.type = type;
  }

  /** The name as an option, table property or catalog option. */
  String key() {
    return key;
  }

  /**
   * The name in Spark's conf: {@code spark.mosaic.<name>} (catalog settings: under the catalog).
   */
  String confKey() {
    return scope == Scope.CATALOG ? key : CONF_PREFIX + key;
  }

  Scope scope() {
    return scope;
  }

  Type type() {
    return type;
  }
}
