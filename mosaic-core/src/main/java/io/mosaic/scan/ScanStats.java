package io.mosaic.scan;

import java.util.List;
import java.util.Map;

/**
 * What a scan did: row groups read and skipped, bytes the devices read for it, peak buffered bytes,
 * and column chunks: {@code chunksRead} read from a device for this scan, {@code chunksShared}
 * received from the shared buffer as another scan's load (docs/cooperative-scans.md; 0 on the
 * ordered path).
 */
public record ScanStats(
    List<Integer> rowGroupsRead,
    int rowGroupsSkipped,
    Map<String, Long> bytesPerDevice,
    long peakBufferedBytes,
    long bufferLimit,
    long elapsedNanos,
    long chunksRead,
    long chunksShared) {}
