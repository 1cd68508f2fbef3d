package io.mosaic.scan;

import java.util.List;
import java.util.Map;

/** What a scan did: row groups read and skipped, bytes per device, peak buffered bytes. */
public record ScanStats(
    List<Integer> rowGroupsRead,
    int rowGroupsSkipped,
    Map<String, Long> bytesPerDevice,
    long peakBufferedBytes,
    long bufferLimit,
    long elapsedNanos) {}
