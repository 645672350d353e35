import { describeCodePointScan } from "./support/unicode-scan.js";

describeCodePointScan("o200k_base");
