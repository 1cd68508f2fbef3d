package io.mosaic.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.SourcePage;
import java.util.Arrays;
import java.util.function.ObjLongConsumer;

/**
 * One batch of rows whose columns are decoded only when the engine asks for them: Trino's SPI 476
 * has no {@code LazyBlock} any more, laziness lives in {@link SourcePage} (as in trino-parquet's
 * own page source). A filter that drops every row of a batch before touching a column leaves that
 * column undecoded; positions the engine selects before loading a column are applied to it when it
 * loads.
 */
final class LazySourcePage implements SourcePage {
  /** Decodes column {@code channel} of this batch (all of the batch's rows). */
  interface Loader {
    Block load(int channel);
  }

  private final Block[] blocks;
  private final Loader loader;
  private int positions;
  // Positions of the batch the page still holds, null while it holds them all.
  private int[] selected;

  LazySourcePage(int positions, int channels, Loader loader) {
    this.positions = positions;
    this.blocks = new Block[channels];
    this.loader = loader;
  }

  @Override
  public int getPositionCount() {
    return positions;
  }

  @Override
  public long getSizeInBytes() {
    long n = 0;
    for (Block b : blocks) {
      n += b == null ? 0 : b.getSizeInBytes();
    }
    return n;
  }

  @Override
  public long getRetainedSizeInBytes() {
    long n = 0;
    for (Block b : blocks) {
      n += b == null ? 0 : b.getRetainedSizeInBytes();
    }
    return n;
  }

  @Override
  public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer) {
    for (Block b : blocks) {
      if (b != null) {
        b.retainedBytesForEachPart(consumer);
      }
    }
  }

  @Override
  public int getChannelCount() {
    return blocks.length;
  }

  @Override
  public Block getBlock(int channel) {
    Block block = blocks[channel];
    if (block == null) {
      block = loader.load(channel);
      if (selected != null) {
        block = block.getPositions(selected, 0, positions);
      }
      blocks[channel] = block;
    }
    return block;
  }

  @Override
  public Page getPage() {
    for (int c = 0; c < blocks.length; c++) {
      getBlock(c);
    }
    return new Page(positions, blocks.clone());
  }

  @Override
  public void selectPositions(int[] positions, int offset, int size) {
    for (int c = 0; c < blocks.length; c++) {
      if (blocks[c] != null) {
        blocks[c] = blocks[c].getPositions(positions, offset, size);
      }
    }
    if (selected == null) {
      selected = Arrays.copyOfRange(positions, offset, offset + size);
    } else {
      int[] composed = new int[size];
      for (int i = 0; i < size; i++) {
        composed[i] = selected[positions[offset + i]];
      }
      selected = composed;
    }
    this.positions = size;
  }

  /** Whether column {@code channel} has been decoded (tests and metrics). */
  boolean loaded(int channel) {
    return blocks[channel] != null;
  }
}
