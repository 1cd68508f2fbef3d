package io.mosaic.device;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * HDFS's storage policies and the storage types each puts a block's replicas on (Hadoop's
 * ArchivalStorage documentation, "Storage Policies"): what a device's {@code storage_policy} may
 * name, and what the check after each write accepts ({@link Device#checkPlacement}). A policy that
 * mixes types (ONE_SSD, WARM) passes when every replica is on one of its types.
 */
final class StoragePolicies {
  private static final Map<String, Set<String>> TYPES =
      Map.of(
          "ALL_NVDIMM", Set.of("NVDIMM"),
          "LAZY_PERSIST", Set.of("RAM_DISK", "DISK"),
          "ALL_SSD", Set.of("SSD"),
          "ONE_SSD", Set.of("SSD", "DISK"),
          "HOT", Set.of("DISK"),
          "WARM", Set.of("DISK", "ARCHIVE"),
          "COLD", Set.of("ARCHIVE"),
          "PROVIDED", Set.of("PROVIDED", "DISK"));

  /** What {@link #types} knows, for messages. */
  static final String KNOWN =
      "ALL_NVDIMM, LAZY_PERSIST, ALL_SSD, ONE_SSD, HOT, WARM, COLD, PROVIDED";

  private StoragePolicies() {}

  /** The storage types of {@code policy}, empty when HDFS has no such policy. */
  static Optional<Set<String>> types(String policy) {
    // HDFS takes policy names in any case.
    return Optional.ofNullable(TYPES.get(policy.toUpperCase(Locale.ROOT)));
  }
}
