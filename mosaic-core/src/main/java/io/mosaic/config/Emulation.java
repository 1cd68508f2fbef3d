package io.mosaic.config;

/**
 * How a plain directory pretends to be a slower device (docs/configuration.md, "Emulated devices"):
 * every byte read through Mosaic's device I/O path is paced at {@code read}, shared by all threads,
 * and each non-sequential read first costs {@code seek}.
 */
public record Emulation(Bandwidth read, Latency seek) {}
