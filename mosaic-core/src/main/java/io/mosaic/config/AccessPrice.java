package io.mosaic.config;

import java.util.Objects;

/**
 * What reading a device costs besides storing on it: an object store's price per 1,000 GET requests
 * and per GB retrieved (docs/cost-model.md, "Money per month"). Billed by the month, like the
 * storage of a device priced with {@code cost_per_gb_month}; {@link #NONE} for every device bought
 * outright or billed for storage alone (EBS volumes, instance NVMe, the paper's Table 1).
 *
 * @param per1000Requests the price of 1,000 GET requests (one per column chunk a scan reads)
 * @param perGbRetrieved the price of each GB (10^9 bytes) read back, as stored
 */
public record AccessPrice(Cost per1000Requests, Cost perGbRetrieved) {
  public static final AccessPrice NONE = new AccessPrice(Cost.ofCents(0), Cost.ofCents(0));

  public AccessPrice {
    Objects.requireNonNull(per1000Requests, "per1000Requests");
    Objects.requireNonNull(perGbRetrieved, "perGbRetrieved");
  }

  /** Whether reading costs nothing beyond storage: the paper's Eq. 5 holds unchanged. */
  public boolean free() {
    return per1000Requests.cents() == 0 && perGbRetrieved.cents() == 0;
  }

  /** Cents one request costs. */
  public double centsPerRequest() {
    return per1000Requests.cents() / 1000;
  }
}
