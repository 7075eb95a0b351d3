//! The pure media core of toolshape: values in, values out, no I/O, never panics.
//!
//! - [`Formula`]: what an image costs a model of the Anthropic or OpenAI family, from its
//!   pixel size, by each provider's documented formula.
//! - [`probe`] and [`decode`]: the header first (format told by the bytes, dimensions checked
//!   against [`DecodeLimits`] before anything in proportion to them is allocated), then a
//!   decode bounded by the `image` crate's limits.
//! - [`fit_images`]: the images of one result fitted into one token budget ([`MediaPolicy`]):
//!   downscaled when over their share (aspect kept within one pixel, never enlarged), passed
//!   byte for byte when already small, left out with a typed [`MediaNote`] when hostile.
//! - [`fit_region`]: a region of the original, in its pixels, fitted to the budget again.
//! - [`audio_outcome`]: audio passed, or left out over `audio_max_bytes`.

mod audio;
mod base64;
mod decode;
mod encode;
mod fit;
mod format;
mod formula;
mod note;
mod policy;
mod region;

pub use audio::{AudioOutcome, audio_outcome};
pub use base64::{decode_base64, encode_base64};
pub use decode::{DecodeLimits, ImageInfo, Probe, decode, probe};
pub use encode::{EncodedImage, encode, output_kind};
pub use fit::{Delivery, ImageInput, ImageOutcome, fit_images};
pub use format::{AudioKind, ImageKind};
pub use formula::{Formula, scale_to_long_side};
pub use note::MediaNote;
pub use policy::{DEFAULT_AUDIO_MAX_BYTES, DEFAULT_BUDGET_TOKENS, MediaMode, MediaPolicy};
pub use region::{Region, RegionError, fit_region};
