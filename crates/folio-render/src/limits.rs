//! The decode limits every image reader shares (env:images' formats and the TIFF reader), in a
//! leaf module both import.

/// Decode limits: the defence against pixel bombs (a tiny file declaring a gigapixel canvas).
/// The declared size is checked from the header before any pixel is decoded.
#[derive(Debug, Clone, Copy)]
pub struct ImageLimits {
    /// The most pixels (width × height) an input may declare. Default 100 million.
    pub max_pixels: u64,
    /// The most bytes a decoder may allocate. Default 1 GiB.
    pub max_alloc: u64,
}

impl Default for ImageLimits {
    fn default() -> ImageLimits {
        ImageLimits { max_pixels: 100_000_000, max_alloc: 1 << 30 }
    }
}
