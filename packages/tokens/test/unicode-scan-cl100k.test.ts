import { describeCodePointScan } from "./support/unicode-scan.js";

describeCodePointScan("cl100k_base");
