//! The interactive browser.

use crate::cli::BrowseArgs;

pub fn browse(_args: &BrowseArgs) -> color_eyre::Result<()> {
    color_eyre::eyre::bail!("the browser is not built yet; use `cgtui report`")
}
