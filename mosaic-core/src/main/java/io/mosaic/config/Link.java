package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.Objects;

/**
 * A path several devices share to the host, such as an instance's network (every S3 storage class)
 * or its EBS bandwidth (every EBS volume): a scan reads all of them together at most at {@code
 * read}, however fast each device alone is (docs/cost-model.md, "Shared links").
 *
 * @param id the name devices give in {@code link = "..."}
 * @param read the link's rate: bytes per second the host reads over it, from all its devices
 */
public record Link(String id, Bandwidth read) {
  public Link {
    Objects.requireNonNull(read, "read");
    if (id == null || !DeviceConfigParser.ID.matcher(id).matches()) {
      throw MosaicException.invalid(
          "link id '" + id + "': ids may use only letters, digits, '-', '_' and '.'");
    }
  }
}
