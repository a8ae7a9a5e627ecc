//! `#[derive(PhysicsLayer)]` for bevy_physics2d: an enum of unit variants becomes a set of
//! named collision layers, the n-th variant (from zero) being the layer of bit `1 << n`.

use proc_macro::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, parse_macro_input};

/// Most layers a `u64` mask holds.
const MAX_LAYERS: usize = 64;

/// Implements `bevy_physics2d::PhysicsLayer` for an enum of unit variants: the first
/// variant is bit 1, the second bit 2, the n-th (from zero) `1 << n`. At most 64 variants;
/// anything else is a compile error that says why.
#[proc_macro_derive(PhysicsLayer)]
pub fn derive_physics_layer(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let name = &input.ident;
    let Data::Enum(data) = &input.data else {
        return syn::Error::new_spanned(name, "PhysicsLayer can only be derived for an enum")
            .to_compile_error()
            .into();
    };
    if data.variants.is_empty() {
        return syn::Error::new_spanned(name, "a PhysicsLayer enum needs at least one variant")
            .to_compile_error()
            .into();
    }
    if data.variants.len() > MAX_LAYERS {
        return syn::Error::new_spanned(
            name,
            format!(
                "a PhysicsLayer enum has at most {MAX_LAYERS} variants (one bit of a u64 each), \
                 this one has {}",
                data.variants.len()
            ),
        )
        .to_compile_error()
        .into();
    }
    let mut arms = Vec::new();
    for (index, variant) in data.variants.iter().enumerate() {
        if !matches!(variant.fields, Fields::Unit) {
            return syn::Error::new_spanned(
                &variant.ident,
                "PhysicsLayer variants must be unit variants (a layer is a name, not data)",
            )
            .to_compile_error()
            .into();
        }
        let ident = &variant.ident;
        let bit = 1u64 << index;
        arms.push(quote! { #name::#ident => #bit });
    }
    let count = data.variants.len() as u32;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::bevy_physics2d::PhysicsLayer for #name #type_generics #where_clause {
            fn to_bits(&self) -> u64 {
                match self {
                    #(#arms,)*
                }
            }

            fn all_bits() -> u64 {
                u64::MAX >> (64 - #count)
            }
        }
    }
    .into()
}
