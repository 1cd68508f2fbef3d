package io.mosaic.trino;

import com.google.inject.Inject;
import io.airlift.units.Duration;
import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.trino.spi.StandardErrorCode;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.VarcharType;
import java.util.List;

/**
 * The catalog's session properties ({@code SET SESSION mosaic.<name> = ...}); each overrides the
 * catalog property of the same meaning, if there is one, for one session (docs/trino.md lists
 * them).
 */
final class MosaicSessionProperties {
  static final String DYNAMIC_FILTERING_WAIT_TIMEOUT = "dynamic_filtering_wait_timeout";
  static final String PAGE_PRUNING_ENABLED = "page_pruning_enabled";
  static final String SHARING_POLICY = "sharing_policy";

  private final List<PropertyMetadata<?>> properties;

  @Inject
  MosaicSessionProperties(MosaicConfig config) {
    properties =
        List.of(
            new PropertyMetadata<>(
                DYNAMIC_FILTERING_WAIT_TIMEOUT,
                "How long split planning waits for a join's dynamic filter (e.g. '2s', '0s')",
                VarcharType.VARCHAR,
                Duration.class,
                config.getDynamicFilteringWaitTimeout(),
                false,
                value -> duration(DYNAMIC_FILTERING_WAIT_TIMEOUT, (String) value),
                Duration::toString),
            // As Hive's parquet_use_column_index: read only the pages the column indexes cannot
            // rule out; off reads whole row groups (to compare, or if an index were wrong).
            PropertyMetadata.booleanProperty(
                PAGE_PRUNING_ENABLED,
                "Read only the pages of a row group that the column indexes cannot rule out",
                true,
                false),
            // Cooperative scans (docs/cooperative-scans.md): which of the node's shared buffers the
            // session's scans
            // join; scans share reads only with scans of the same policy.
            new PropertyMetadata<>(
                SHARING_POLICY,
                "How this session's scans share reads with concurrent scans: normal, attach,"
                    + " elevator or relevance",
                VarcharType.VARCHAR,
                SharingPolicy.class,
                config.sharingPolicy(),
                false,
                value -> policy((String) value),
                SharingPolicy::configName));
  }

  private static SharingPolicy policy(String value) {
    try {
      return SharingPolicy.parse(value);
    } catch (MosaicException e) {
      throw new TrinoException(
          StandardErrorCode.INVALID_SESSION_PROPERTY,
          "session property " + SHARING_POLICY + ": " + e.getMessage(),
          e);
    }
  }

  static SharingPolicy sharingPolicy(ConnectorSession session) {
    return session.getProperty(SHARING_POLICY, SharingPolicy.class);
  }

  private static Duration duration(String name, String value) {
    try {
      return Duration.valueOf(value);
    } catch (IllegalArgumentException e) {
      throw new TrinoException(
          StandardErrorCode.INVALID_SESSION_PROPERTY,
          "session property "
              + name
              + " must be a duration such as '1s' or '500ms', not '"
              + value
              + "'",
          e);
    }
  }

  List<PropertyMetadata<?>> all() {
    return properties;
  }

  static boolean pagePruningEnabled(ConnectorSession session) {
    return session.getProperty(PAGE_PRUNING_ENABLED, Boolean.class);
  }

  static Duration dynamicFilteringWaitTimeout(ConnectorSession session) {
    return session.getProperty(DYNAMIC_FILTERING_WAIT_TIMEOUT, Duration.class);
  }
}
